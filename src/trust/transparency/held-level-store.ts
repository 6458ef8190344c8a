import type { Hash, NodeId } from '../../lib/transparency';

/** A SHA-256 hash: every node of the tree. */
export const HASH_BYTES = 32;
/**
 * Nodes per buffer of a held level, and at most per write: half a megabyte of hashes. A level
 * grows a buffer at a time, so each level allocates at most one buffer more than it holds and
 * never copies what it holds whole.
 */
export const CHUNK_NODES = 16_384;
/** Levels of at most this many nodes keep their nodes' base64 (at most ~0.5 MB in all). */
const BASE64_KEPT_MAX_NODES = 4096;

/** A held level's nodes, CHUNK_NODES to a buffer (the last one may be shorter). */
interface HeldLevel {
  chunks: Buffer[];
  count: number;
  /** Small levels' nodes as base64, once asked (nearly every proof carries them); null once grown past. */
  base64: (string | undefined)[] | null | undefined;
}

/**
 * The tree levels UpperTreeLevels holds: each level's first `count` nodes, in index order, as the
 * levels of a committed tree (immutable once written). Storage only; what to hold and when to
 * read it is UpperTreeLevels'.
 */
export class HeldLevelStore {
  private readonly levels: (HeldLevel | undefined)[] = [];

  /** Nodes held, for tests and metrics. */
  get nodes(): number {
    let held = 0;
    for (const level of this.levels) held += level?.count ?? 0;
    return held;
  }

  /** How many nodes of `level` are held (from index 0). */
  count(level: number): number {
    return this.levels[level]?.count ?? 0;
  }

  /** The next index of `level` a write may start a chunk-bounded run at, and where that run must end at most. */
  nextRun(level: number, want: number): { from: number; to: number } {
    const from = this.count(level);
    return { from, to: Math.min(want, (Math.floor(from / CHUNK_NODES) + 1) * CHUNK_NODES) };
  }

  /** Appends `hashes` (whole nodes, within one chunk: see nextRun) after the nodes `level` holds. */
  append(level: number, hashes: Uint8Array): void {
    const held = (this.levels[level] ??= { chunks: [], count: 0, base64: undefined });
    const nodes = Math.floor(hashes.byteLength / HASH_BYTES);
    const at = Math.floor(held.count / CHUNK_NODES);
    const offset = held.count % CHUNK_NODES;
    if (offset + nodes > CHUNK_NODES)
      throw new RangeError(`held level ${level}: a write of ${nodes} nodes at ${held.count} crosses a chunk`);
    const needed = (offset + nodes) * HASH_BYTES;
    let chunk = held.chunks[at];
    if (!chunk || chunk.byteLength < needed) {
      // The last chunk doubles up to a whole one: a small level stays small, a node is copied at most a few times.
      const grown = Buffer.alloc(Math.min(CHUNK_NODES * HASH_BYTES, Math.max(needed, (chunk?.byteLength ?? 0) * 2)));
      chunk?.copy(grown, 0, 0, offset * HASH_BYTES);
      held.chunks[at] = chunk = grown;
    }
    chunk.set(hashes.subarray(0, nodes * HASH_BYTES), offset * HASH_BYTES);
    held.count += nodes;
  }

  /** The node's hash when held (a view of immutable bytes). */
  hash(node: NodeId): Hash | undefined {
    const level = this.holding(node);
    if (!level) return undefined;
    const start = (node.index % CHUNK_NODES) * HASH_BYTES;
    return level.chunks[Math.floor(node.index / CHUNK_NODES)]!.subarray(start, start + HASH_BYTES);
  }

  /** The node's hash in base64 when held. */
  base64(node: NodeId): string | undefined {
    const level = this.holding(node);
    if (!level) return undefined;
    const kept = level.count <= BASE64_KEPT_MAX_NODES ? (level.base64 ??= []) : null;
    // Grown past the small levels: what it kept would never be asked again.
    if (kept === null && level.base64 !== null) level.base64 = null;
    const known = kept?.[node.index];
    if (known !== undefined) return known;
    const start = (node.index % CHUNK_NODES) * HASH_BYTES;
    const encoded = level.chunks[Math.floor(node.index / CHUNK_NODES)]!.toString('base64', start, start + HASH_BYTES);
    if (kept) kept[node.index] = encoded;
    return encoded;
  }

  /** Drops the levels below `level`. */
  dropBelow(level: number): void {
    for (let held = 0; held < level; held++) this.levels[held] = undefined;
  }

  clear(): void {
    this.levels.length = 0;
  }

  private holding(node: NodeId): HeldLevel | undefined {
    const level = this.levels[node.level];
    return level && node.index < level.count ? level : undefined;
  }
}
