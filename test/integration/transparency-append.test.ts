/**
 * Appends to the transparency log from many transactions at once (src/transparency-log): the tail
 * lock and the tail read travel in one round trip, and the read must still see every append
 * committed while it waited for the lock. Each transaction holds the lock a while before it
 * commits, so the others queue on it: a tail read whose snapshot predated the lock would reuse a
 * taken index and fail on the primary key.
 */
import { foldSubtrees, leafHash, rootNodes } from '../../src/lib/transparency';
import { TransparencyLog } from '../../src/transparency-log/transparency-log';
import { nodeKey, TransparencyRepository } from '../../src/transparency-log/transparency.repository';
import { merkleRoot } from '../support/merkle-root';
import { openTestDatabase, type OpenTestDatabase } from '../support/test-database';

describe('TransparencyLog.append from many transactions at once', () => {
  let db: OpenTestDatabase;
  let repository: TransparencyRepository;

  beforeAll(async () => {
    db = await openTestDatabase();
    repository = new TransparencyRepository(db.dataSource);
  });
  afterAll(() => db?.close());

  it('gives every append its own consecutive index, and the stored tree is the one its leaves make', async () => {
    const log = new TransparencyLog(repository);
    const transactions = 12;
    const perTransaction = 3;
    const indexes = await Promise.all(
      Array.from({ length: transactions }, (_, t) =>
        db.dataSource.transaction(async (manager) => {
          const taken: number[] = [];
          for (let i = 0; i < perTransaction; i++) taken.push(await log.append({ type: 'yank', slug: `plugin-${t}`, version: `1.0.${i}` }, manager));
          // Held to commit: the other transactions wait on the lock meanwhile.
          await manager.query('SELECT pg_sleep(0.02)');
          return taken;
        }),
      ),
    );
    const all = indexes.flat().sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: transactions * perTransaction }, (_, i) => i));
    // Each transaction's entries are consecutive: the lock is held from its first append to commit.
    for (const taken of indexes) expect(taken).toEqual([taken[0], taken[0]! + 1, taken[0]! + 2]);

    const size = await repository.size();
    expect(size).toBe(all.length);
    const entries = await repository.findEntries(0, size);
    const roots = rootNodes(size);
    const stored = await repository.findNodes(roots);
    const root = foldSubtrees(roots.map((node) => stored.get(nodeKey(node))!));
    expect(Buffer.from(root).toString('hex')).toBe(Buffer.from(merkleRoot(entries.map((entry) => leafHash(entry)))).toString('hex'));
  });
});
