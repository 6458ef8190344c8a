/**
 * What the CLI remembers between runs about each registry's transparency log: the largest tree head
 * it verified (so the next run can demand a consistency proof from it) and, for `registry monitor`,
 * how far it has read and the compact range (the right frontier) to recompute roots from.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { CliIo } from './command';

export interface RememberedHead {
  origin: string;
  size: number;
  /** base64 of the root hash. */
  root_hash: string;
  /** The signed note it came from: evidence to show if a later head is not consistent with it. */
  note: string;
}

export interface MonitorProgress {
  /** Entries read and checked so far. */
  size: number;
  /** base64 hashes of rootNodes(size), largest first. */
  frontier: string[];
}

export interface LogState {
  version: 1;
  heads: Record<string, RememberedHead>;
  monitors: Record<string, MonitorProgress>;
}

/** --state FILE, else $XDG_STATE_HOME/registry/log-heads.json, else ~/.local/state/registry/log-heads.json. */
export function statePath(io: CliIo, explicit: string | undefined): string {
  if (explicit !== undefined) return isAbsolute(explicit) ? explicit : resolve(io.cwd, explicit);
  const base =
    io.env.XDG_STATE_HOME && isAbsolute(io.env.XDG_STATE_HOME) ? io.env.XDG_STATE_HOME : join(io.env.HOME || homedir(), '.local', 'state');
  return join(base, 'registry', 'log-heads.json');
}

export class StateFileError extends Error {}

export async function readState(path: string): Promise<LogState> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, heads: {}, monitors: {} };
    throw new StateFileError(`cannot read state file ${path}: ${(error as Error).message}`);
  }
  try {
    const value = JSON.parse(text) as Partial<LogState>;
    if (value.version !== 1 || typeof value.heads !== 'object' || value.heads === null) throw new Error('not a version 1 state file');
    return { version: 1, heads: value.heads, monitors: value.monitors ?? {} };
  } catch (error) {
    throw new StateFileError(`state file ${path} is damaged (${(error as Error).message}); move it aside to start over`);
  }
}

/** Written to a temporary file and renamed, so a crash never leaves half a state file. */
export async function writeState(path: string, state: LogState): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(state, null, 2) + '\n', { mode: 0o600 });
  await rename(temporary, path);
}
