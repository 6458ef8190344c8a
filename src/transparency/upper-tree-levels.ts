import { foldSubtrees, type Hash, type NodeId } from '../lib/transparency';
import { nodeKey, type NodeHashes } from '../transparency-log/transparency.repository';

const HASH_BYTES = 32;
/** The lowest level held while the log is small: a proof then reads at most four nodes of its own. */
export const UPPER_MIN_LEVEL = 4;
/** About 16 MB of hashes at most: past ~4M leaves the lowest level held rises. */
export const UPPER_MAX_BYTES = 16 * 1024 * 1024;
/** Proof elements folded from several subtrees, remembered: those of a few thousand tree sizes. */
const MAX_FOLDS = 4096;
/** Nodes fetched per query while filling: half a megabyte of hashes, a millisecond or so of the event loop. */
const FILL_CHUNK = 16_384;
/** After a failed fill, how long before the next is tried. */
const RETRY_AFTER_MS = 5_000;
/**
 * How long a committed size read stands for the log's: a proof within a size seen this recently
 * need not read the head again. Bounded so a log seen smaller (a failover, a restore) is noticed
 * within this long under load.
 */
export const COMMITTED_SIZE_TRUST_MS = 1_000;

/** What the levels are read from: the log's committed size, and a level's hashes in index order. */
export interface UpperLevelSource {
  size(): Promise<number>;
  /** The hashes of nodes [from, to) of `level`, concatenated; fewer if some are missing. */
  levelHashes(level: number, from: number, to: number): Promise<Uint8Array>;
}

/** The lowest level whose nodes, with all above, fit the byte bound for a tree of `size`. */
export function lowestHeldLevel(size: number, minLevel = UPPER_MIN_LEVEL, maxBytes = UPPER_MAX_BYTES): number {
  let level = minLevel;
  // Levels L and up hold about 2·size/2^L nodes.
  while (2 * Math.floor(size / 2 ** level) * HASH_BYTES > maxBytes) level++;
  return level;
}

/** What a proof has before it reads: see UpperTreeLevels.plan. */
export interface ProofPlan {
  toRead: NodeId[];
  folded: (Hash | undefined)[];
  generation: number;
}

/** A node a proof folds is in no read's answer: the log is not (or no longer) the size asked. */
export class MissingProofNode extends Error {
  override readonly name = 'MissingProofNode';
  constructor(readonly node: string) {
    super(`transparency log: proof node ${node} is missing`);
  }
}

function foldKey(group: readonly NodeId[]): string {
  return group.map(nodeKey).join(' ');
}

interface HeldLevel {
  hashes: Buffer;
  count: number;
}

/**
 * The upper levels of the log's tree, held whole in process: a complete subtree's hash never
 * changes once committed, and level 4 and up of a million-leaf log is about 4 MB, so a proof's
 * query reads only its leaf and the few nodes below (docs/performance.md). Filled in the
 * background, in index order, from committed reads (a node is only read once the size that
 * completes it is committed); a node not held yet is read with the proof, as before it was.
 */
export class UpperTreeLevels {
  private readonly levels = new Map<number, HeldLevel>();
  private readonly folds = new Map<string, Hash>();
  private lowest: number;
  private target = 0;
  /** The tree size every held level is complete for, and when it was seen committed. */
  private filled = 0;
  private filledAtMs = Number.NEGATIVE_INFINITY;
  /** Moves when the held levels are forgotten, so a fill under way keeps nothing it read. */
  private generation = 0;
  /** The last committed size a read saw, and when. */
  private committed = 0;
  private committedAtMs = Number.NEGATIVE_INFINITY;
  private filling: Promise<void> | null = null;
  private retryAtMs = 0;

  constructor(
    private readonly source: UpperLevelSource,
    private readonly onFailure: (error: unknown) => void,
    private readonly minLevel = UPPER_MIN_LEVEL,
    private readonly maxBytes = UPPER_MAX_BYTES,
    // Monotonic: a wall clock stepped back would stretch how long a committed size is trusted.
    private readonly nowMs: () => number = () => performance.now(),
  ) {
    this.lowest = minLevel;
  }

  /** Nodes held, for tests and metrics. */
  get heldNodes(): number {
    let held = 0;
    for (const level of this.levels.values()) held += level.count;
    return held;
  }

  /**
   * What a proof of these elements (`groups`, as inclusionProofNodes and consistencyProofNodes give
   * them) has already: elements folded before (`folded`, by position) and held nodes (their hashes
   * into `found`); and the nodes it still has to read.
   */
  plan(groups: readonly NodeId[][], found: NodeHashes): ProofPlan {
    const toRead: NodeId[] = [];
    const folded = groups.map((group) => {
      const kept = group.length > 1 ? this.folds.get(foldKey(group)) : undefined;
      if (!kept) toRead.push(...this.lookup(group, found));
      return kept;
    });
    return { toRead, folded, generation: this.generation };
  }

  /**
   * The proof's elements: those `plan` found folded, the rest from `found`. An element of several
   * subtrees (the tree's right edge, shared by every proof of one size) is folded once and
   * remembered while the levels stand.
   */
  fold(groups: readonly NodeId[][], found: NodeHashes, plan: ProofPlan): Hash[] {
    return groups.map((group, position) => {
      const kept = plan.folded[position];
      if (kept) return kept;
      // Only folds of levels still standing are kept: forgotten meanwhile, `found` may hold the old log's.
      const key = group.length > 1 && plan.generation === this.generation ? foldKey(group) : null;
      const folded = foldSubtrees(
        group.map((node) => {
          const hash = found.get(nodeKey(node));
          if (!hash) throw new MissingProofNode(nodeKey(node));
          return hash;
        }),
      );
      if (key !== null) {
        if (this.folds.size >= MAX_FOLDS) this.folds.clear();
        this.folds.set(key, folded);
      }
      return folded;
    });
  }

  /** Splits `nodes` into those held (their hashes into `found`) and those still to read. */
  lookup(nodes: readonly NodeId[], found: NodeHashes): NodeId[] {
    const missing: NodeId[] = [];
    for (const node of nodes) {
      const level = node.level >= this.lowest ? this.levels.get(node.level) : undefined;
      if (level && node.index < level.count) {
        const start = node.index * HASH_BYTES;
        found.set(nodeKey(node), level.hashes.subarray(start, start + HASH_BYTES));
      } else {
        missing.push(node);
      }
    }
    return missing;
  }

  /** When a read that will report a committed size starts (give it back to sawCommittedSize). */
  readStart(): number {
    return this.nowMs();
  }

  /**
   * A committed size a read saw (a read started at `readStartedAtMs`): the levels are filled toward
   * it in the background. A log never shrinks: a smaller size from a read that started after the
   * held levels' size was seen means the database is not the one they were read from (a failover
   * that lost commits, a restore), so nothing held is trusted any more. A read that started
   * earlier and answers late may just be older.
   */
  sawCommittedSize(size: number, readStartedAtMs: number = this.nowMs()): void {
    if (size < this.filled && readStartedAtMs >= this.filledAtMs) this.forget(size);
    if (size > this.target) this.target = size;
    if (size >= this.committed) {
      this.committed = size;
      this.committedAtMs = Math.max(this.committedAtMs, readStartedAtMs);
    }
    if (this.filling || this.nowMs() < this.retryAtMs || this.filled >= this.target) return;
    this.filling = this.fill()
      .catch((error: unknown) => {
        this.retryAtMs = this.nowMs() + RETRY_AFTER_MS;
        this.onFailure(error);
      })
      .finally(() => {
        this.filling = null;
      });
  }

  /** Whether a committed size of at least `size` was read in the last COMMITTED_SIZE_TRUST_MS. */
  committedAtLeast(size: number): boolean {
    return size <= this.committed && this.nowMs() - this.committedAtMs < COMMITTED_SIZE_TRUST_MS;
  }

  /** Resolves when no fill is running (tests wait on it). */
  async settled(): Promise<void> {
    while (this.filling) await this.filling;
  }

  private async fill(): Promise<void> {
    while (this.filled < this.target) {
      // The size is read again: the target may be a size not committed yet where this runs.
      const committed = await this.source.size();
      const seenAtMs = this.nowMs();
      if (committed < this.filled) this.forget(committed);
      const size = Math.min(this.target, committed);
      if (size <= this.filled) return;
      const generation = this.generation;
      this.raiseLowest(lowestHeldLevel(size, this.minLevel, this.maxBytes));
      for (let level = this.lowest; Math.floor(size / 2 ** level) > 0; level++) {
        if (!(await this.fillLevel(level, Math.floor(size / 2 ** level), generation))) return;
      }
      this.filled = size;
      this.filledAtMs = seenAtMs;
    }
  }

  private forget(size: number): void {
    // A fill under way holds levels read from the old log: it stops at its next read.
    this.generation++;
    this.levels.clear();
    this.folds.clear();
    // What was read before stands for nothing now: the next proof reads the head.
    this.committed = size;
    this.committedAtMs = Number.NEGATIVE_INFINITY;
    this.lowest = this.minLevel;
    this.filled = 0;
    this.filledAtMs = Number.NEGATIVE_INFINITY;
    this.target = size;
  }

  private raiseLowest(level: number): void {
    if (level <= this.lowest) return;
    for (const held of [...this.levels.keys()]) if (held < level) this.levels.delete(held);
    this.lowest = level;
  }

  /** False when the levels were forgotten meanwhile (nothing read is kept). */
  private async fillLevel(level: number, want: number, generation: number): Promise<boolean> {
    const held = this.levels.get(level) ?? { hashes: Buffer.alloc(0), count: 0 };
    // Exactly what this round needs: the byte bound holds for what is allocated, not only what is filled.
    if (held.hashes.byteLength < want * HASH_BYTES) {
      const grown = Buffer.alloc(want * HASH_BYTES);
      held.hashes.copy(grown, 0, 0, held.count * HASH_BYTES);
      held.hashes = grown;
    }
    while (held.count < want) {
      const to = Math.min(want, held.count + FILL_CHUNK);
      const read = await this.source.levelHashes(level, held.count, to);
      if (generation !== this.generation) return false;
      const nodes = Math.floor(read.byteLength / HASH_BYTES);
      if (nodes !== to - held.count) throw new Error(`transparency log: level ${level} nodes ${held.count}..${to} read back ${nodes}`);
      held.hashes.set(read.subarray(0, nodes * HASH_BYTES), held.count * HASH_BYTES);
      held.count = to;
      this.levels.set(level, held);
    }
    return true;
  }
}
