import type { EntityManager } from 'typeorm';
import { completedBy, encodeLogEntry, leafHash, nodeHash, type Hash, type LogEntry, type NodeId } from '../lib/transparency';
import { nodeKey, type TransparencyRepository } from './transparency.repository';

/**
 * Appends to the transparency log inside the caller's transaction, so an entry commits with the
 * change it records or not at all. Call it as the transaction's last write: the tail lock it takes
 * is held to commit, and every other lock (the key set's, the changes feed's) must come before it.
 * Framework-free (TypeORM only): the server's services and the operator CLI share it.
 */
export class TransparencyLog {
  constructor(private readonly repository: TransparencyRepository) {}

  /** The new leaf's index. Throws (failing the caller's transaction) if the leaf or a node cannot be written. */
  async append(entry: LogEntry, manager: EntityManager, releaseId?: string | null): Promise<number> {
    const bytes = encodeLogEntry(entry);
    const leaf = leafHash(bytes);
    const { size: index, roots } = await this.repository.lockTail(manager);
    // Each completed subtree above level 0 joins its left sibling (a root subtree of the tree
    // before this leaf) with the one just completed below it.
    const nodes: { node: NodeId; hash: Hash }[] = [];
    let below: Hash = leaf;
    for (const node of completedBy(index + 1)) {
      if (node.level > 0) {
        const left = roots.get(nodeKey({ level: node.level - 1, index: node.index * 2 }));
        if (!left) throw new Error(`transparency log: node ${node.level - 1}/${node.index * 2} is missing below leaf ${index}`);
        below = nodeHash(left, below);
      }
      nodes.push({ node, hash: below });
    }
    await this.repository.insertLeaf(manager, { index, entry: bytes, leafHash: leaf, releaseId: releaseId ?? null }, nodes);
    return index;
  }

  /** The number of committed leaves; with `manager`, as its transaction sees it. */
  size(manager?: EntityManager): Promise<number> {
    return this.repository.size(manager);
  }
}
