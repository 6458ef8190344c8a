/**
 * `registry verify`'s log step: the verified release must be in the registry's transparency log,
 * under a tree head consistent with the largest one this machine verified before.
 */
import { sha256Hex, type KeySet, type ReleaseRecord } from '../lib/integrity';
import { encodeLogEntry } from '../lib/transparency';
import type { CliIo } from './command';
import { LogClient, LogVerificationError, type VerifiedHead } from './log-client';
import { readState, writeState } from './log-state';

export interface ReleaseInLog {
  registry: string;
  statePath: string;
  release: ReleaseRecord & { log_index?: unknown };
  keySet: KeySet;
  kid: string;
  /**
   * Refuse a release that names no entry instead of warning: a registry that has had a log all
   * along could otherwise re-sign a release and skip the log by leaving `log_index` null.
   */
  requireEntry: boolean;
}

const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

/**
 * Checks the head's consistency with the remembered one (LogForkError), then the release's
 * inclusion (LogVerificationError); remembers the head once it is known consistent. Returns the
 * lines to print, or a warning when the release names no entry (LogVerificationError with `requireEntry`).
 */
export async function checkReleaseInLog(io: CliIo, input: ReleaseInLog): Promise<{ lines: string[]; warning?: string }> {
  const { release } = input;
  const index = release.log_index;
  if (index === null || index === undefined) {
    if (input.requireEntry)
      throw new LogVerificationError(
        `${release.slug}@${release.version} names no transparency log entry (log_index null), and --require-log refuses a release that is not in the log`,
      );
    return {
      lines: [],
      warning: `${release.slug}@${release.version} names no transparency log entry (released before the log, or copied by a mirror before mirrors served their upstream's log): inclusion not checked`,
    };
  }
  if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0)
    throw new LogVerificationError('the release names no valid log_index');

  const client = new LogClient(io, input.registry);
  const head = await client.head(input.keySet);
  const lines: string[] = [];
  const state = await readState(input.statePath);
  const seen = state.heads[input.registry];
  if (seen) {
    await client.checkConsistency(seen, head);
    lines.push(`  tree head of size ${head.size} is consistent with the head of size ${seen.size} seen before`);
  }
  if (!seen || head.size > seen.size) {
    state.heads[input.registry] = remembered(head);
    await writeState(input.statePath, state);
  }

  const jwsSha256 = sha256Hex(release.integrity!.jws);
  const common = { slug: release.slug, version: release.version, kid: input.kid, jws_sha256: jwsSha256 };
  const candidates = [encodeLogEntry({ type: 'release', ...common }), encodeLogEntry({ type: 'resign', ...common })];
  const entry = await client.checkInclusion(index, candidates, head);
  const type = entry === candidates[0] ? 'release' : 'resign';
  lines.unshift(`  in transparency log ${head.origin} as entry ${index} (${type}) of tree size ${head.size}: inclusion verified`);
  return { lines };
}

function remembered(head: VerifiedHead): { origin: string; size: number; root_hash: string; note: string } {
  return { origin: head.origin, size: head.size, root_hash: base64(head.rootHash), note: head.note };
}
