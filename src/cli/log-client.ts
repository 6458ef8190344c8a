/**
 * The client side of the transparency log: fetch and verify tree heads, inclusion and consistency
 * proofs and entry tiles from a registry. Every answer is checked with src/lib/transparency; a
 * verdict is an exception of one of the classes below.
 */
import {
  decodeEntryBundle,
  hashesEqual,
  leafHash,
  openNote,
  parseCheckpoint,
  tilePath,
  TILE_WIDTH,
  verifyConsistency,
  verifyInclusion,
  type Checkpoint,
  type Hash,
} from '../lib/transparency';
import { canonicalJsonBytes, usableKeys, type KeySet, type ReleaseRecord } from '../lib/integrity';
import type { CliIo } from './command';
import type { RememberedHead } from './log-state';

/** The registry could not be reached or answered HTTP errors: no verdict (exit 2). */
export class LogUnreachableError extends Error {
  constructor(
    message: string,
    /** The HTTP status it answered, when it answered. */
    readonly status?: number,
  ) {
    super(message);
  }
}
/** An answer did not verify: bad signature, malformed data, a proof that fails (exit 1). */
export class LogVerificationError extends Error {}
/** The new tree head is not an extension of one verified before: a forked view (exit 3). */
export class LogForkError extends Error {}

export interface VerifiedHead extends Checkpoint {
  note: string;
}

/** Answers bigger than this are refused unread: a tile of 256 entries of a few hundred bytes fits easily. */
const MAX_ANSWER_BYTES = 20 * 1024 * 1024;

const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

/** Answers that mean "not now": the read limit, a registry briefly unavailable. */
const BUSY = new Set([429, 503]);
const BUSY_ATTEMPTS = 6;
const MAX_RETRY_AFTER_MS = 60_000;

/** Retry-After (seconds, or an HTTP date) as a wait, at most a minute; null without a readable one. */
function retryAfterMs(header: string | null): number | null {
  const value = header?.trim() ?? '';
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - Date.now();
  return Number.isNaN(ms) ? null : Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

function decodeHash(value: unknown, what: string): Hash {
  if (typeof value !== 'string' || !/^[A-Za-z0-9+/]{43}=$/.test(value))
    throw new LogVerificationError(`${what} is not a base64 SHA-256 hash`);
  return new Uint8Array(Buffer.from(value, 'base64'));
}

function decodeHashes(value: unknown, what: string): Hash[] {
  if (!Array.isArray(value) || value.length > 128) throw new LogVerificationError(`${what} is not a list of hashes`);
  return value.map((item, i) => decodeHash(item, `${what}[${i}]`));
}

export class LogClient {
  constructor(
    private readonly io: CliIo,
    readonly registry: string,
  ) {}

  /**
   * One answer, waiting out a rate limit: a monitor reading entries one by one (or a first run
   * reading a large log) meets the registry's per-client read limit, which answers 429 with
   * Retry-After. 429 and 503 are asked again up to BUSY_ATTEMPTS times, after Retry-After or,
   * without one, after 1, 2, 4… seconds (REGISTRY_RETRY_DELAY_MS is the unit); never more than a
   * minute.
   */
  private async get(path: string): Promise<Uint8Array> {
    const url = `${this.registry}${path}`;
    const asked = Number(this.io.env.REGISTRY_RETRY_DELAY_MS ?? 1000);
    const unit = Number.isFinite(asked) && asked >= 0 ? asked : 1000;
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await this.io.fetch(url);
      } catch (error) {
        throw new LogUnreachableError(`cannot reach ${url}: ${(error as Error).message}`);
      }
      if (!BUSY.has(response.status) || attempt === BUSY_ATTEMPTS) return this.body(url, response);
      // The refusal's body is not needed: dropped unread, however large.
      await response.body?.cancel().catch(() => undefined);
      const waitMs = Math.min(retryAfterMs(response.headers.get('retry-after')) ?? unit * 2 ** (attempt - 1), MAX_RETRY_AFTER_MS);
      this.io.stderr(`${url} answered HTTP ${response.status}: asking again in ${Math.ceil(waitMs / 1000)} s\n`);
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }

  private async body(url: string, response: Response): Promise<Uint8Array> {
    if (!response.ok) throw new LogUnreachableError(`${url} answered HTTP ${response.status}`, response.status);
    const length = Number(response.headers.get('content-length') ?? 0);
    if (length > MAX_ANSWER_BYTES) throw new LogVerificationError(`${url} answered ${length} bytes, more than any log answer`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.length > MAX_ANSWER_BYTES) throw new LogVerificationError(`${url} answered more bytes than any log answer`);
    return bytes;
  }

  /** The key set releases are verified with; the log's note key is one of its Ed25519 keys. */
  async keySet(): Promise<KeySet> {
    const value = await this.getJson('/.well-known/registry-key.json');
    if (!Array.isArray(value.keys)) throw new LogVerificationError('the key set has no keys');
    return value as unknown as KeySet;
  }

  /** A release record as the registry serves it, or undefined when it answers 404. */
  async release(slug: string, version: string): Promise<(ReleaseRecord & { log_index?: unknown }) | undefined> {
    const path = `/api/plugins/${encodeURIComponent(slug)}/releases/${encodeURIComponent(version)}`;
    try {
      return (await this.getJson(path)) as unknown as ReleaseRecord;
    } catch (error) {
      if (error instanceof LogUnreachableError && error.status === 404) return undefined;
      throw error;
    }
  }

  private async getJson(path: string): Promise<Record<string, unknown>> {
    const bytes = await this.get(path);
    try {
      const value: unknown = JSON.parse(Buffer.from(bytes).toString('utf8'));
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // reported below
    }
    throw new LogVerificationError(`${this.registry}${path} did not return a JSON object`);
  }

  /**
   * The signed tree head, its note opened with the registry's Ed25519 keys: the note key is named
   * after the log's origin (the checkpoint's first line) and its key hash is noteKeyHash(origin, x).
   */
  async head(keySet: KeySet): Promise<VerifiedHead> {
    const bytes = await this.get('/api/log/head');
    const text = Buffer.from(bytes).toString('utf8');
    const origin = text.slice(0, Math.max(0, text.indexOf('\n')));
    // A key listed twice is one verifier, not an ambiguous pair.
    const xs = [...new Set(usableKeys(keySet).map((jwk) => jwk.x))];
    const verifiers = xs.map((x) => ({ name: origin, publicKey: new Uint8Array(Buffer.from(x, 'base64url')) }));
    try {
      const opened = openNote(bytes, verifiers);
      const checkpoint = parseCheckpoint(opened.text);
      return { ...checkpoint, note: text };
    } catch (error) {
      throw new LogVerificationError(`the tree head does not verify with the registry's key set: ${(error as Error).message}`);
    }
  }

  /** Checks `head` extends `seen` (or, if smaller, that `seen` extends it). Equal sizes need equal roots. */
  async checkConsistency(seen: RememberedHead, head: Checkpoint): Promise<void> {
    const seenRoot = decodeHash(seen.root_hash, 'remembered root hash');
    if (seen.size === 0 || head.size === 0) return;
    const [small, large] =
      seen.size <= head.size
        ? [
            { size: seen.size, root: seenRoot },
            { size: head.size, root: head.rootHash },
          ]
        : [
            { size: head.size, root: head.rootHash },
            { size: seen.size, root: seenRoot },
          ];
    let proof: Hash[] = [];
    if (small.size !== large.size) {
      const answer = await this.getJson(`/api/log/proof/consistency?from=${small.size}&to=${large.size}`);
      if (answer.from !== small.size || answer.to !== large.size)
        throw new LogVerificationError('the consistency proof answers other sizes than asked');
      proof = decodeHashes(answer.proof, 'consistency proof');
    }
    try {
      verifyConsistency(small.size, large.size, proof, small.root, large.root);
    } catch (error) {
      throw new LogForkError(
        `the tree head of size ${head.size} (root ${base64(head.rootHash)}) is not consistent with the head of size ${seen.size} ` +
          `(root ${seen.root_hash}) verified before: ${(error as Error).message}`,
      );
    }
  }

  /**
   * Verifies that leaf `index` of the tree `head` is one of `candidates` (the entries the caller
   * computed itself) and returns the one it is.
   */
  async checkInclusion(index: number, candidates: Uint8Array[], head: Checkpoint): Promise<Uint8Array> {
    if (index >= head.size) throw new LogVerificationError(`log index ${index} is not in the tree head of size ${head.size}`);
    const answer = await this.getJson(`/api/log/proof/inclusion?index=${index}&size=${head.size}`);
    if (answer.index !== index || answer.size !== head.size)
      throw new LogVerificationError('the inclusion proof answers another index or size than asked');
    const served = typeof answer.entry === 'string' ? Buffer.from(answer.entry, 'base64') : Buffer.alloc(0);
    const entry = candidates.find((candidate) => served.equals(Buffer.from(candidate)));
    if (!entry) throw new LogVerificationError(`log entry ${index} is not the entry computed from the verified release`);
    const leaf = leafHash(entry);
    if (!Buffer.from(decodeHash(answer.leaf_hash, 'leaf_hash')).equals(Buffer.from(leaf)))
      throw new LogVerificationError(`leaf hash of entry ${index} is not the hash of its entry`);
    try {
      verifyInclusion(index, head.size, leaf, decodeHashes(answer.proof, 'inclusion proof'), head.rootHash);
    } catch (error) {
      throw new LogVerificationError(`the inclusion proof of entry ${index} does not verify: ${(error as Error).message}`);
    }
    return entry;
  }

  /**
   * Entries [from, to) from the entry tiles, at the widths a tree of size `to` has. A registry
   * whose /log/tile answers 404 (a proxy in front of it that serves only /api) is read one entry at
   * a time from /api/log/entries instead, from that tile on; `onFallback` hears of it once.
   */
  async *entries(
    from: number,
    to: number,
    onFallback: (notice: string) => void = () => undefined,
  ): AsyncGenerator<{ index: number; entry: Uint8Array }> {
    for (let tile = Math.floor(from / TILE_WIDTH); tile * TILE_WIDTH < to; tile++) {
      const width = Math.min(TILE_WIDTH, to - tile * TILE_WIDTH);
      const first = Math.max(from, tile * TILE_WIDTH);
      const path = `/log/${tilePath('entries', tile, width)}`;
      let bundle: Uint8Array[];
      try {
        bundle = decodeEntryBundle(await this.get(path));
      } catch (error) {
        if (error instanceof LogUnreachableError && error.status === 404) {
          onFallback(`${this.registry}/log/tile answers 404 (no entry tiles served): reading entries one by one from /api/log/entries`);
          for (let index = first; index < to; index++) yield { index, entry: await this.entry(index) };
          return;
        }
        if (error instanceof LogUnreachableError) throw error;
        throw new LogVerificationError(`entry tile ${tile} is malformed: ${(error as Error).message}`);
      }
      if (bundle.length !== width) throw new LogVerificationError(`entry tile ${tile} holds ${bundle.length} entries, not ${width}`);
      for (let index = first; index < tile * TILE_WIDTH + width; index++) yield { index, entry: bundle[index - tile * TILE_WIDTH]! };
    }
  }

  /**
   * Entry `index` as /api/log/entries gives it (decoded), back as the leaf's bytes: its canonical
   * JSON, which must hash to the leaf hash served with it. The caller checks the bytes against the
   * signed root like a tile's.
   */
  private async entry(index: number): Promise<Uint8Array> {
    const answer = await this.getJson(`/api/log/entries/${index}`);
    if (answer.index !== index) throw new LogVerificationError(`/api/log/entries/${index} answers entry ${String(answer.index)}`);
    let bytes: Uint8Array;
    try {
      bytes = canonicalJsonBytes(answer.entry);
    } catch (error) {
      throw new LogVerificationError(`log entry ${index} cannot be encoded: ${(error as Error).message}`);
    }
    if (!hashesEqual(leafHash(bytes), decodeHash(answer.leaf_hash, `leaf_hash of entry ${index}`))) {
      throw new LogVerificationError(`log entry ${index} does not hash to the leaf hash served with it`);
    }
    return bytes;
  }
}
