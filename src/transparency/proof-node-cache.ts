import type { NodeId } from '../lib/transparency';
import { nodeKey, type NodeHashes } from '../transparency-log/transparency.repository';

/** Level 6 and up: a log of 1M leaves has ~31k such nodes, a proof ~14 of its ~20. */
export const CACHED_MIN_LEVEL = 6;
/** About 5 MB of keys and hashes at most, whatever the log's size. */
export const CACHED_MAX_NODES = 65_536;

/**
 * The upper nodes of the tree that proofs fold, kept in process: a complete subtree's hash never
 * changes once committed (its leaves never do, and an append only inserts), so a proof's query
 * need only fetch the few lowest levels and the leaf. Only nodes a committed read returned go in
 * (the service reads outside any transaction), never a computed or uncommitted one. Bounded by
 * count: past the bound the oldest entry leaves first.
 */
export class ProofNodeCache {
  private readonly hashes: NodeHashes = new Map();

  constructor(
    private readonly minLevel = CACHED_MIN_LEVEL,
    private readonly maxNodes = CACHED_MAX_NODES,
  ) {}

  get size(): number {
    return this.hashes.size;
  }

  /** Splits `nodes` into those held (their hashes into `found`) and those still to read. */
  lookup(nodes: readonly NodeId[], found: NodeHashes): NodeId[] {
    const missing: NodeId[] = [];
    for (const node of nodes) {
      if (node.level < this.minLevel) {
        missing.push(node);
        continue;
      }
      const key = nodeKey(node);
      const hash = this.hashes.get(key);
      if (hash) found.set(key, hash);
      else missing.push(node);
    }
    return missing;
  }

  /** Keeps the upper-level nodes of a committed read's answer. */
  remember(read: NodeHashes): void {
    for (const [key, hash] of read) {
      if (this.hashes.has(key) || Number(key.slice(0, key.indexOf('/'))) < this.minLevel) continue;
      if (this.hashes.size >= this.maxNodes) this.hashes.delete(this.hashes.keys().next().value!);
      this.hashes.set(key, hash);
    }
  }
}
