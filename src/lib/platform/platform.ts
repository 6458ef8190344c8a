/**
 * Which platform an asset targets, read from its file name (DECISIONS 5). Framework-free: the
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
