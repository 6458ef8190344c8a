import type { EntityManager } from 'typeorm';
import { completedBy, encodeLogEntry, leafHash, type LogEntry } from '../../lib/transparency';
import type { TransparencyRepository } from './transparency.repository';

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
    const { index, nodes } = await this.repository.appendLeaf(manager, {
      entry: bytes,
      leafHash: leafHash(bytes),
      releaseId: releaseId ?? null,
    });
    // Each subtree the leaf completes joins a stored left sibling: one missing ends the chain early.
    const completed = completedBy(index + 1).length;
    if (nodes !== completed)
      throw new Error(`transparency log: leaf ${index} completes ${completed} subtrees, ${nodes} written (a left sibling is missing)`);
    return index;
  }

  /** The number of committed leaves; with `manager`, as its transaction sees it. */
  size(manager?: EntityManager): Promise<number> {
    return this.repository.size(manager);
  }
}
