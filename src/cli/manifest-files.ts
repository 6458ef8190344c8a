import { readFileSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { basename, join } from 'node:path';
import {
  checkManifest,
  DEFAULT_MANIFEST_ASSET_CANDIDATES,
  MANIFEST_FILE_NAMES,
  manifestTooLarge,
  MAX_MANIFEST_BYTES,
} from '../lib/manifest';
import type { ValidationResult } from '../lib/manifest';

/** A mistake in how the command was called or what it was pointed at: exit 2. */
export class UsageError extends Error {}

export function statOrUsageError(path: string, what: string): Stats {
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `${what} not found: ${path}` : `cannot read ${what} ${path}: ${code ?? String(error)}`);
  }
}

export function readOrUsageError(path: string, what: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new UsageError(`cannot read ${what} ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/**
 * Names a folder may hold a manifest under, in the order they are preferred: the repository-root
 * names first (what a webhook reads at the tag), then the release-asset names (what a release
 * carries as an asset).
 */
export const FOLDER_CANDIDATES: readonly string[] = [...new Set([...MANIFEST_FILE_NAMES, ...DEFAULT_MANIFEST_ASSET_CANDIDATES])];

/** Which kind of manifest name a file has: where the registry would read it from. */
export function kindOfName(name: string): string {
  const root = MANIFEST_FILE_NAMES.includes(name);
  const asset = DEFAULT_MANIFEST_ASSET_CANDIDATES.includes(name);
  if (root && asset) return 'repository-root and release-asset name';
  if (root) return 'repository-root name';
  return asset ? 'release-asset name' : 'a file given by path';
}

/** The manifest file to check, and notes about what else the folder held. */
export function findManifest(target: string): { file: string; notes: string[] } {
  if (!statOrUsageError(target, 'path').isDirectory()) return { file: target, notes: [] };
  const present = FOLDER_CANDIDATES.filter((name) => {
    try {
      return statSync(join(target, name)).isFile();
    } catch {
      return false;
    }
  });
  if (present.length === 0) {
    throw new UsageError(
      `no manifest found in ${target} (looked for the repository-root names ${MANIFEST_FILE_NAMES.join(', ')} ` +
        `and the release-asset names ${DEFAULT_MANIFEST_ASSET_CANDIDATES.join(', ')})`,
    );
  }
  const [chosen, ...others] = present;
  const notes =
    others.length > 0 ? [`also found ${others.join(', ')}; checked ${chosen}, the first in the order ${FOLDER_CANDIDATES.join(', ')}`] : [];
  return { file: join(target, chosen), notes };
}

export function checkFile(file: string, options: Parameters<typeof checkManifest>[2]): ValidationResult {
  const size = statOrUsageError(file, 'manifest').size;
  // Refused before reading, as the server refuses an oversized push.
  if (size > MAX_MANIFEST_BYTES) return { ok: false, violations: [manifestTooLarge(size)], notes: [], warnings: [] };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(readOrUsageError(file, 'manifest'));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    return { ok: false, violations: [{ path: '', message: 'manifest: is not valid UTF-8 text' }], notes: [], warnings: [] };
  }
  return checkManifest(text, basename(file), options);
}
