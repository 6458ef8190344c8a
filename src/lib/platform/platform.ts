/**
 * Which platform an asset targets, read from its file name
 * (docs/decisions.md#one-ingest-for-push-and-webhook-with-a-guarded-fetch). Framework-free: the
 * server, the CLI and host runtimes share it.
 */
export type AssetOs = 'linux' | 'darwin' | 'win32' | 'universal';
export type AssetArch = 'x64' | 'arm64' | 'ia32' | 'armhf' | 'universal';

const OS_WORDS: Record<string, Exclude<AssetOs, 'universal'>> = {
  linux: 'linux',
  darwin: 'darwin',
  macos: 'darwin',
  mac: 'darwin',
  osx: 'darwin',
  windows: 'win32',
  win32: 'win32',
  win: 'win32',
};

const ARCH_WORDS: Record<string, Exclude<AssetArch, 'universal'>> = {
  x64: 'x64',
  amd64: 'x64',
  arm64: 'arm64',
  aarch64: 'arm64',
  ia32: 'ia32',
  x86: 'ia32',
  i386: 'ia32',
  armhf: 'armhf',
  armv7: 'armhf',
};

/** Words of a file name; `x86_64`/`x86-64` is one word (x64) before splitting on separators. */
function words(fileName: string): string[] {
  return fileName
    .toLowerCase()
    .replace(/x86[_-]64/g, 'x64')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

export function detectPlatform(fileName: string): { os: AssetOs; arch: AssetArch } {
  let os: AssetOs = 'universal';
  let arch: AssetArch = 'universal';
  for (const word of words(fileName)) {
    if (os === 'universal' && OS_WORDS[word]) os = OS_WORDS[word];
    if (arch === 'universal' && ARCH_WORDS[word]) arch = ARCH_WORDS[word];
  }
  return { os, arch };
}

/** `<os>-<arch>`, or `universal` for an asset that names neither. */
export function platformKey(os: AssetOs | string, arch: AssetArch | string): string {
  return os === 'universal' && arch === 'universal' ? 'universal' : `${os}-${arch}`;
}

export interface TargetPlatform {
  os: Exclude<AssetOs, 'universal'> | null;
  arch: Exclude<AssetArch, 'universal'> | null;
}

/** `os` and `arch` query values by any of the names asset files use (`macos`, `amd64`, ...). */
export function normalizeOs(value: string): Exclude<AssetOs, 'universal'> | null {
  return OS_WORDS[value.toLowerCase()] ?? null;
}

export function normalizeArch(value: string): Exclude<AssetArch, 'universal'> | null {
  const word = value.toLowerCase().replace(/^x86[_-]64$/, 'x64');
  return ARCH_WORDS[word] ?? null;
}

/** The platform words a User-Agent can carry, most specific first. */
const UA_OS: [RegExp, Exclude<AssetOs, 'universal'>][] = [
  [/\bwindows\b|\bwin(?:32|64|dows nt)\b/i, 'win32'],
  [/\bmac(?:intosh|os| os x)?\b|\bdarwin\b|\bosx\b/i, 'darwin'],
  [/\blinux\b/i, 'linux'],
];
const UA_ARCH: [RegExp, Exclude<AssetArch, 'universal'>][] = [
  [/\b(?:aarch64|arm64)\b/i, 'arm64'],
  [/\b(?:armv7l?|armhf)\b/i, 'armhf'],
  [/\b(?:x86[_-]64|x64|amd64|win64|wow64)\b/i, 'x64'],
  [/\b(?:i[3-6]86|ia32|x86)\b/i, 'ia32'],
];

/**
 * The platform a User-Agent names, in the forms browsers, command-line clients and host
 * runtimes use: `Windows NT 10.0; Win64; x64`, `Macintosh; Intel Mac OS X 14_5`, `X11; Linux
 * x86_64`, `aarch64`, `MyHost/1.2 (linux; arm64)`. A Mac named only "Intel" is x64. What it does
 * not name stays null.
 */
export function platformFromUserAgent(userAgent: string | undefined): TargetPlatform {
  const ua = userAgent ?? '';
  const os = UA_OS.find(([pattern]) => pattern.test(ua))?.[1] ?? null;
  let arch = UA_ARCH.find(([pattern]) => pattern.test(ua))?.[1] ?? null;
  if (!arch && os === 'darwin' && /\bintel\b/i.test(ua)) arch = 'x64';
  return { os, arch };
}
