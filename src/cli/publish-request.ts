import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { statOrUsageError, UsageError } from './manifest-files';

export interface PushAsset {
  name: string;
  url: string;
  sha256?: string;
  size?: number;
}

/** `NAME=URL` → the asset as declared; the URL must be absolute http(s). */
export function assetFromArgument(argument: string): PushAsset {
  const equals = argument.indexOf('=');
  if (equals <= 0) throw new UsageError(`--asset needs NAME=URL, got '${argument}'`);
  return { name: argument.slice(0, equals), url: checkedUrl(argument.slice(equals + 1), '--asset') };
}

function checkedUrl(url: string, option: string): string {
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) throw new UsageError(`${option}: '${url}' is not an absolute http(s) URL`);
  return url;
}

/**
 * `PATH=URL` → the asset named after the file, with the sha256 and size of the local file, so the
 * registry can check that what it downloads from URL is what was built here.
 */
export async function assetFromFile(argument: string, cwd: string): Promise<PushAsset> {
  const equals = argument.indexOf('=');
  if (equals <= 0) throw new UsageError(`--asset-file needs PATH=URL, got '${argument}'`);
  const path = resolve(cwd, argument.slice(0, equals));
  const url = checkedUrl(argument.slice(equals + 1), '--asset-file');
  if (!statOrUsageError(path, 'asset file').isFile()) throw new UsageError(`--asset-file: ${path} is not a file`);
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { name: basename(path), url, sha256: hash.digest('hex'), size };
}

/** The attestation bundle in FILE, which must be a JSON object. */
export function attestationFromFile(path: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`--attestation: cannot read ${path} as JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError(`--attestation: ${path} must hold a JSON object`);
  return value as Record<string, unknown>;
}

/**
 * The web URL of a git remote: `git@host:owner/repo.git` and `ssh://git@host/o/r.git` become
 * `https://host/o/r`; an http(s) remote keeps its scheme and port, without `.git` or credentials.
 */
export function httpsRepositoryUrl(remote: string): string | null {
  const text = remote.trim();
  const scp = /^[\w.-]+@([\w.-]+):(.+)$/.exec(text);
  if (scp) return `https://${scp[1]}/${scp[2].replace(/\.git$/, '').replace(/\/+$/, '')}`;
  try {
    const url = new URL(text);
    if (!['https:', 'http:', 'ssh:', 'git:'].includes(url.protocol)) return null;
    const path = url.pathname.replace(/\.git$/, '').replace(/\/+$/, '');
    return url.protocol === 'https:' || url.protocol === 'http:' ? `${url.protocol}//${url.host}${path}` : `https://${url.hostname}${path}`;
  } catch {
    return null;
  }
}

/** The repository URL of the git remote `origin` in `cwd`, when there is one. */
export function originRepositoryUrl(cwd: string): string | null {
  try {
    const remote = execFileSync('git', ['config', '--get', 'remote.origin.url'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return httpsRepositoryUrl(remote);
  } catch {
    return null;
  }
}
