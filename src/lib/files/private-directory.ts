import { chmodSync, lstatSync, mkdirSync, readdirSync, type Stats } from 'node:fs';
import { join } from 'node:path';

/** Owner read/write: DATA_DIR holds the database and generated secrets, nobody else's business. */
export const PRIVATE_FILE_MODE = 0o600;
/** Owner read/write/search. */
export const PRIVATE_DIRECTORY_MODE = 0o700;

function gone(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/** Drops every permission bit the owner-only mode lacks; a stricter mode (0400) stays as it is. */
function tighten(path: string, stats: Stats): void {
  const allowed = stats.isDirectory() ? PRIVATE_DIRECTORY_MODE : PRIVATE_FILE_MODE;
  const mode = stats.mode & 0o7777;
  if ((mode & ~allowed) === 0) return;
  try {
    chmodSync(path, mode & allowed);
  } catch (error) {
    if (!gone(error)) throw error;
  }
}

/** Creates the directory (and parents) owner-only, and tightens it if it already existed looser. */
export function ensurePrivateDirectory(path: string): void {
  mkdirSync(path, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  tighten(path, lstatSync(path));
}

/**
 * Tightens a tree to owner-only: directories 0700 at most, everything else 0600 at most. A data
 * directory written by an older version (or restored from a backup) is world-readable otherwise.
 * Symbolic links are neither followed nor changed (chmod would change their target, which may lie
 * outside the tree); entries that vanish meanwhile are skipped.
 */
export function tightenTree(root: string): void {
  let stats: Stats;
  try {
    stats = lstatSync(root);
  } catch (error) {
    if (gone(error)) return;
    throw error;
  }
  if (stats.isSymbolicLink()) return;
  tighten(root, stats);
  if (!stats.isDirectory()) return;
  let entries: string[];
  try {
    entries = readdirSync(root);
  } catch (error) {
    if (gone(error)) return;
    throw error;
  }
  for (const entry of entries) tightenTree(join(root, entry));
}
