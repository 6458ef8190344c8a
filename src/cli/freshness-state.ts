import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { FreshnessSeen } from '../lib/freshness';

/** Bounded: a state file is a few entries per plugin a host installs, never megabytes. */
const MAX_STATE_BYTES = 4 * 1024 * 1024;

interface StateFile {
  version: 1;
  /** registry URL → slug → platform key → what the last accepted answer said. */
  seen: Record<string, Record<string, Record<string, FreshnessSeen>>>;
}

/**
 * What `registry latest` last accepted per registry, slug and platform, so the next answer can be
 * refused when it is older (rollback). `$XDG_STATE_HOME/registry/freshness.json`, else
 * `~/.local/state/registry/freshness.json`, or the file `--state` names.
 */
export class FreshnessState {
  private constructor(
    readonly path: string,
    private readonly state: StateFile,
  ) {}

  /** Beside the log heads' state (src/cli/log-state.ts), in the same folder. */
  static defaultPath(env: Readonly<Record<string, string | undefined>>): string {
    const base = env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : join(env.HOME || homedir(), '.local', 'state');
    return join(base, 'registry', 'freshness.json');
  }

  /** Reads the file; a missing one is an empty state, an unreadable or malformed one an error. */
  static async open(path: string, cwd: string): Promise<FreshnessState> {
    const absolute = isAbsolute(path) ? path : resolve(cwd, path);
    let text: string;
    try {
      text = await readFile(absolute, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new FreshnessState(absolute, { version: 1, seen: {} });
      throw new Error(`cannot read freshness state ${absolute}: ${(error as Error).message}`);
    }
    if (text.length > MAX_STATE_BYTES) throw new Error(`freshness state ${absolute} is over ${MAX_STATE_BYTES} bytes`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(`freshness state ${absolute} is not JSON`);
    }
    if (!isStateFile(parsed)) throw new Error(`freshness state ${absolute} is not a freshness state file (version 1)`);
    return new FreshnessState(absolute, parsed);
  }

  get(registry: string, slug: string, platform: string): FreshnessSeen | undefined {
    return Object.hasOwn(this.state.seen, registry) &&
      Object.hasOwn(this.state.seen[registry], slug) &&
      Object.hasOwn(this.state.seen[registry][slug], platform)
      ? this.state.seen[registry][slug][platform]
      : undefined;
  }

  /** Records an accepted answer and writes the file whole (a rename: never half written). */
  async remember(registry: string, slug: string, platform: string, seen: FreshnessSeen): Promise<void> {
    const bySlug = (this.state.seen[registry] ??= {});
    (bySlug[slug] ??= {})[platform] = { version: seen.version, tree_size: seen.tree_size, issued_at: seen.issued_at };
    await mkdir(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(this.state, null, 2) + '\n', { mode: 0o600 });
    await rename(temporary, this.path);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSeen(value: unknown): value is FreshnessSeen {
  return (
    isRecord(value) && typeof value.version === 'string' && Number.isSafeInteger(value.tree_size) && typeof value.issued_at === 'string'
  );
}

function isStateFile(value: unknown): value is StateFile {
  if (!isRecord(value) || value.version !== 1 || !isRecord(value.seen)) return false;
  return Object.values(value.seen).every(
    (bySlug) =>
      isRecord(bySlug) && Object.values(bySlug).every((byPlatform) => isRecord(byPlatform) && Object.values(byPlatform).every(isSeen)),
  );
}
