import { foldSubtrees, type Hash, type NodeId } from '../../lib/transparency';
import { nodeKey, type NodeHashes } from '../transparency-log/transparency.repository';
import { HASH_BYTES, HeldLevelStore } from './held-level-store';

/**
 * The lowest level held while the log is small: level 0 is the leaf hashes, which a proof reads
 * with its leaf (the sibling is the adjacent key of the same table), so holding them would double
 * the memory to spare one key of a read.
 */
export const UPPER_MIN_LEVEL = 1;
/** 64 MiB of hashes at most: level 1 and up to about 2M leaves, then one level higher per doubling. */
export const UPPER_MAX_BYTES = 64 * 1024 * 1024;
/** Proof elements folded from several subtrees, remembered: those of a few thousand tree sizes. */
const MAX_FOLDS = 4096;
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

/**
 * What a proof has before it reads (see UpperTreeLevels.plan): each element's base64 where it is
 * known already, and for the others their subtrees, held ones as hashes and the rest as positions
 * in `toRead`.
 */
export interface ProofPlan {
  known: (string | undefined)[];
  pending: { position: number; parts: (Hash | number)[] }[];
  toRead: NodeId[];
  generation: number;
}

/** A node a proof folds is in no read's answer: the log is not (or no longer) the size asked. */
export class MissingProofNode extends Error {
  override readonly name = 'MissingProofNode';
  constructor(readonly node: string) {
    super(`transparency log: proof node ${node} is missing`);
  }
}

function base64(hash: Uint8Array): string {
  return Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength).toString('base64');
}

function foldKey(group: readonly NodeId[]): string {
  return group.map(nodeKey).join(' ');
}

/**
 * The upper levels of the log's tree, held whole in process: a complete subtree's hash never
 * changes once committed, and level 1 and up of a million-leaf log is 32 MB, so a proof's query
 * reads only its leaf and the leaf hashes it needs (docs/performance.md). Filled in the
 * background, from the top level down and each level in index order, from committed reads (a
 * node is only read once the size that completes it is committed); a node not held yet is read
 * with the proof, as before it was.
 */
export class UpperTreeLevels {
  /** A level below `lowest` is not asked (raiseLowest drops it). */
  private readonly levels = new HeldLevelStore();
  /** Folded elements, base64, by their subtrees. */
  private readonly folds = new Map<string, string>();
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
  private closed = false;

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
    return this.levels.nodes;
  }

  /**
   * What a proof of these elements (`groups`, as inclusionProofNodes and consistencyProofNodes give
   * them) has already, without a read: held subtrees and elements folded before; and the nodes it
   * still has to read.
   */
  plan(groups: readonly NodeId[][]): ProofPlan {
    const known: (string | undefined)[] = new Array<string | undefined>(groups.length);
    const pending: ProofPlan['pending'] = [];
    const toRead: NodeId[] = [];
    for (let position = 0; position < groups.length; position++) {
      const group = groups[position]!;
      if (group.length === 1) {
        const held = this.heldBase64(group[0]!);
        if (held !== undefined) {
          known[position] = held;
          continue;
        }
      } else {
        const kept = this.folds.get(foldKey(group));
        if (kept !== undefined) {
          known[position] = kept;
          continue;
        }
      }
      pending.push({ position, parts: group.map((node) => this.held(node) ?? toRead.push(node) - 1) });
    }
    return { known, pending, toRead, generation: this.generation };
  }

  /**
   * The proof's elements, base64: those `plan` knew, the rest from `read` (the hashes of
   * plan.toRead, by position; undefined where the read found none). An element of several
   * subtrees (the tree's right edge, shared by every proof of one size) is folded once and
   * remembered while the levels stand.
   */
  elements(groups: readonly NodeId[][], plan: ProofPlan, read: readonly (Uint8Array | undefined)[]): string[] {
    const elements = plan.known.slice();
    for (const { position, parts } of plan.pending) {
      const hashes = parts.map((part) => {
        if (typeof part !== 'number') return part;
        const hash = read[part];
        if (!hash) throw new MissingProofNode(nodeKey(plan.toRead[part]!));
        return hash;
      });
      if (hashes.length === 1) {
        elements[position] = base64(hashes[0]!);
        continue;
      }
      const folded = base64(foldSubtrees(hashes));
      // Only folds of levels still standing are kept: forgotten meanwhile, `read` may be the old log's.
      if (plan.generation === this.generation) {
        if (this.folds.size >= MAX_FOLDS) this.folds.clear();
        this.folds.set(foldKey(groups[position]!), folded);
      }
      elements[position] = folded;
    }
    return elements as string[];
  }

  /** Splits `nodes` into those held (their hashes into `found`) and those still to read: how tests see what is held. */
  lookup(nodes: readonly NodeId[], found: NodeHashes): NodeId[] {
    const missing: NodeId[] = [];
    for (const node of nodes) {
      const hash = this.held(node);
      if (hash) found.set(nodeKey(node), hash);
      else missing.push(node);
    }
    return missing;
  }

  private held(node: NodeId): Hash | undefined {
    return node.level >= this.lowest ? this.levels.hash(node) : undefined;
  }

  private heldBase64(node: NodeId): string | undefined {
    return node.level >= this.lowest ? this.levels.base64(node) : undefined;
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
    if (this.closed || this.filling || this.nowMs() < this.retryAtMs || this.filled >= this.target) return;
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

  /** Fills no more (a fill under way stops after its current read); resolves once none runs: at shutdown, before the pool closes. */
  async close(): Promise<void> {
    this.closed = true;
    this.generation++;
    await this.settled();
  }

  private async fill(): Promise<void> {
    while (this.filled < this.target && !this.closed) {
      // The size is read again: the target may be a size not committed yet where this runs.
      const committed = await this.source.size();
      const seenAtMs = this.nowMs();
      if (committed < this.filled) this.forget(committed);
      const size = Math.min(this.target, committed);
      if (size <= this.filled) return;
      const generation = this.generation;
      this.raiseLowest(lowestHeldLevel(size, this.minLevel, this.maxBytes));
      // From the top down: the small high levels take a read or two and spare every proof most of
      // its nodes at once; level 1, half of what is held, comes last (a proof meanwhile reads the
      // nodes not held yet with its leaf).
      let top = this.lowest;
      while (Math.floor(size / 2 ** (top + 1)) > 0) top++;
      for (let level = top; level >= this.lowest; level--) {
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
    this.levels.dropBelow(level);
    this.lowest = level;
  }

  /** Reads `level` up to `want` nodes; false when the levels were forgotten meanwhile (nothing read is kept). */
  private async fillLevel(level: number, want: number, generation: number): Promise<boolean> {
    while (this.levels.count(level) < want) {
      const { from, to } = this.levels.nextRun(level, want);
      const read = await this.source.levelHashes(level, from, to);
      if (generation !== this.generation) return false;
      const nodes = Math.floor(read.byteLength / HASH_BYTES);
      if (nodes !== to - from) throw new Error(`transparency log: level ${level} nodes ${from}..${to} read back ${nodes}`);
      this.levels.append(level, read);
    }
    return true;
  }
}
