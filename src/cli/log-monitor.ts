/**
 * One pass of `registry monitor`: verify the new tree head (signature, consistency with the last one
 * seen), read the entries added since the last pass, recompute the root from them, and re-verify
 * every release they name against what the registry serves now.
 */
import { canonicalJson, sha256Hex, verifyRelease, type KeySet } from '../lib/integrity';
import { decodeLogEntry, foldSubtrees, hashesEqual, leafHash, nodeHash, rootNodes, type Hash, type LogEntry } from '../lib/transparency';
import type { CliIo } from './command';
import { LogClient, LogForkError, LogVerificationError } from './log-client';
import { readState, writeState, type MonitorProgress } from './log-state';

export interface MonitorPass {
  lines: string[];
  problems: string[];
  /** How the pass had to read the log (entries one by one: no tiles served); said once, not every pass. */
  notices: string[];
  forked: boolean;
}

const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

/** The compact range of a tree: its root subtrees, extended leaf by leaf. */
class Frontier {
  private readonly nodes: { level: number; hash: Hash }[];

  constructor(progress: MonitorProgress) {
    const levels = rootNodes(progress.size);
    if (levels.length !== progress.frontier.length)
      throw new LogVerificationError('the remembered monitor state is damaged (frontier does not fit its size)');
    this.nodes = levels.map((node, i) => ({ level: node.level, hash: new Uint8Array(Buffer.from(progress.frontier[i]!, 'base64')) }));
  }

  append(leaf: Hash): void {
    this.nodes.push({ level: 0, hash: leaf });
    while (this.nodes.length >= 2 && this.nodes[this.nodes.length - 1]!.level === this.nodes[this.nodes.length - 2]!.level) {
      const right = this.nodes.pop()!;
      const left = this.nodes.pop()!;
      this.nodes.push({ level: left.level + 1, hash: nodeHash(left.hash, right.hash) });
    }
  }

  root(): Hash {
    return foldSubtrees(this.nodes.map((node) => node.hash));
  }

  encoded(): string[] {
    return this.nodes.map((node) => b64(node.hash));
  }
}

type SignatureEntry = Extract<LogEntry, { type: 'release' | 'resign' }>;
type YankEntry = Extract<LogEntry, { type: 'yank' | 'unyank' }>;
type DeleteEntry = Extract<LogEntry, { type: 'delete' }>;

/** A deleted release must stay gone (until a later release entry publishes the version again). */
async function recheckDelete(client: LogClient, index: number, entry: DeleteEntry): Promise<string | undefined> {
  const release = await client.release(entry.slug, entry.version);
  return release ? `entry ${index} (delete ${entry.slug}@${entry.version}): the registry still serves this release` : undefined;
}

/** The last yank or un-yank of a release must be what the registry serves now. */
async function recheckYank(client: LogClient, index: number, entry: YankEntry): Promise<string | undefined> {
  const release = await client.release(entry.slug, entry.version);
  if (!release) return `entry ${index} (${entry.type} ${entry.slug}@${entry.version}): the registry no longer serves this release`;
  const yanked = release.yanked === true;
  return yanked === (entry.type === 'yank')
    ? undefined
    : `entry ${index} (${entry.type} ${entry.slug}@${entry.version}): the registry serves it ${yanked ? 'yanked' : 'not yanked'}`;
}

/** Re-verifies the release an entry names; returns the problem, or undefined when it holds. */
async function recheckRelease(client: LogClient, keySet: KeySet, index: number, entry: SignatureEntry): Promise<string | undefined> {
  const what = `entry ${index} (${entry.type} ${entry.slug}@${entry.version})`;
  const release = await client.release(entry.slug, entry.version);
  if (!release) return `${what}: the registry no longer serves this release`;
  const logIndex = release.log_index;
  // A later re-signing replaced this signature; that entry is checked when it is read.
  if (typeof logIndex === 'number' && logIndex > index) return undefined;
  // Null: a copy that names no entry (a mirror's, made before mirrors kept upstream's index). It
  // must still be exactly the logged signature, checked below.
  if (logIndex !== index && logIndex !== null) return `${what}: the release names log index ${String(logIndex)}, not this entry`;
  const result = await verifyRelease({ release, keys: keySet, expected: { slug: entry.slug, version: entry.version } });
  if (!result.ok) return `${what}: the served release does not verify: ${result.code}: ${result.message}`;
  if (result.kid !== entry.kid) return `${what}: the served release is signed by kid ${result.kid}, the log says ${entry.kid}`;
  if (sha256Hex(release.integrity!.jws) !== entry.jws_sha256)
    return `${what}: the served signature is not the one logged (jws_sha256 differs)`;
  return undefined;
}

export async function monitorPass(io: CliIo, registry: string, statePath: string): Promise<MonitorPass> {
  const client = new LogClient(io, registry);
  const keySet = await client.keySet();
  const head = await client.head(keySet);
  const state = await readState(statePath);
  const seen = state.heads[registry];
  try {
    if (seen) await client.checkConsistency(seen, head);
  } catch (error) {
    if (error instanceof LogForkError) return { lines: [], problems: [`forked view: ${error.message}`], notices: [], forked: true };
    throw error;
  }
  if (!seen || head.size > seen.size)
    state.heads[registry] = { origin: head.origin, size: head.size, root_hash: b64(head.rootHash), note: head.note };

  const progress = state.monitors[registry] ?? { size: 0, frontier: [] };
  const problems: string[] = [];
  const lines: string[] = [];
  const notices: string[] = [];
  if (progress.size >= head.size) {
    lines.push(`${head.origin}: tree size ${head.size}, no new entries`);
  } else {
    const frontier = new Frontier(progress);
    const latest = new Map<string, { index: number; entry: SignatureEntry }>();
    const yanks = new Map<string, { index: number; entry: YankEntry }>();
    const deletes = new Map<string, { index: number; entry: DeleteEntry }>();
    let keys: { index: number; keys_sha256: string } | undefined;
    for await (const { index, entry: bytes } of client.entries(progress.size, head.size, (notice) => notices.push(notice))) {
      frontier.append(leafHash(bytes));
      let entry: LogEntry;
      try {
        entry = decodeLogEntry(bytes);
      } catch (error) {
        problems.push(`entry ${index}: not a valid log entry: ${(error as Error).message}`);
        continue;
      }
      if (entry.type === 'keys') {
        keys = { index, keys_sha256: entry.keys_sha256 };
        continue;
      }
      // Each release's last entries are what the registry must serve now.
      const release = `${entry.slug}@${entry.version}`;
      if (entry.type === 'release' || entry.type === 'resign') {
        latest.set(release, { index, entry });
        deletes.delete(release);
      } else if (entry.type === 'delete') {
        deletes.set(release, { index, entry });
        latest.delete(release);
        yanks.delete(release);
      } else {
        yanks.set(release, { index, entry });
      }
    }
    if (!hashesEqual(frontier.root(), head.rootHash)) {
      problems.push(
        `entries ${progress.size}..${head.size - 1} do not hash to the signed root of tree size ${head.size}: an entry was altered or left out`,
      );
    }
    for (const { index, entry } of latest.values()) {
      const problem = await recheckRelease(client, keySet, index, entry);
      if (problem) problems.push(problem);
    }
    for (const { index, entry } of yanks.values()) {
      const problem = await recheckYank(client, index, entry);
      if (problem) problems.push(problem);
    }
    for (const { index, entry } of deletes.values()) {
      const problem = await recheckDelete(client, index, entry);
      if (problem) problems.push(problem);
    }
    // The newest key-set entry describes the key set served now (every change is logged).
    if (keys && sha256Hex(canonicalJson(keySet)) !== keys.keys_sha256) {
      problems.push(`entry ${keys.index} (keys): the key set served is not the one logged (keys_sha256 differs)`);
    }
    lines.push(
      `${head.origin}: read entries ${progress.size}..${head.size - 1} (tree size ${head.size}), re-verified ${latest.size} release(s)`,
    );
    // Progress is kept only for a clean pass, so a problem is found again on the next one.
    if (problems.length === 0) state.monitors[registry] = { size: head.size, frontier: frontier.encoded() };
  }
  await writeState(statePath, state);
  return { lines, problems, notices, forked: false };
}
