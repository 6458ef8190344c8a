/**
 * Appends to the transparency log from many transactions at once (src/trust/transparency-log): the tail
 * lock and the append (the tail read, the leaf and its subtrees, hashed in SQL) travel in one
 * round trip, and the read must still see every append committed while it waited for the lock. Each transaction holds the lock a while before it
 * commits, so the others queue on it: a tail read whose snapshot predated the lock would reuse a
 * taken index and fail on the primary key.
 */
import { foldSubtrees, leafHash, rootNodes } from '../../src/lib/transparency';
import { TransparencyLog } from '../../src/trust/transparency-log/transparency-log';
import { nodeKey, TransparencyRepository } from '../../src/trust/transparency-log/transparency.repository';
import type { PoolClient } from 'pg';
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
          for (let i = 0; i < perTransaction; i++)
            taken.push(await log.append({ type: 'yank', slug: `plugin-${t}`, version: `1.0.${i}` }, manager));
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

  it('appends in one round trip: the lock, the leaf and the subtrees it completes, hashed as RFC 9162 hashes them', async () => {
    const log = new TransparencyLog(repository);
    const before = await repository.size();
    const sent: string[] = [];
    for (let i = 0; i < 9; i++) {
      await db.dataSource.transaction(async (manager) => {
        const client = (await manager.queryRunner!.connect()) as PoolClient;
        const query = client.query;
        client.query = ((...args: Parameters<PoolClient['query']>) => {
          sent.push(String(typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text));
          return (query as (...a: unknown[]) => unknown).apply(client, args);
        }) as PoolClient['query'];
        try {
          expect(await log.append({ type: 'yank', slug: 'one-trip', version: `1.0.${i}` }, manager)).toBe(before + i);
        } finally {
          client.query = query;
        }
      });
    }
    expect(sent).toHaveLength(9);
    const size = await repository.size();
    const leaves = (await repository.findEntries(0, size)).map((entry) => leafHash(entry));
    // Every complete subtree is stored with the hash of the leaves under it.
    for (let level = 0; 2 ** level <= size; level++) {
      const width = 2 ** level;
      const nodes = Array.from({ length: Math.floor(size / width) }, (_, index) => ({ level, index }));
      const stored = await repository.findNodes(nodes);
      for (const node of nodes) {
        expect(Buffer.from(stored.get(nodeKey(node))!).toString('hex')).toBe(
          Buffer.from(merkleRoot(leaves.slice(node.index * width, (node.index + 1) * width))).toString('hex'),
        );
      }
    }
  });

  it('fails the append, writing nothing, when a left sibling it joins is missing', async () => {
    const log = new TransparencyLog(repository);
    // The next leaf's index is odd: it joins its left neighbour's level-0 node.
    if ((await repository.size()) % 2 === 0)
      await db.dataSource.transaction((manager) => log.append({ type: 'yank', slug: 'even', version: '1.0.0' }, manager));
    const size = await repository.size();
    const [sibling] = await db.dataSource.query('SELECT "hash" FROM "transparency_node" WHERE "level" = 0 AND "index" = $1', [
      String(size - 1),
    ]);
    await db.dataSource.query('DELETE FROM "transparency_node" WHERE "level" = 0 AND "index" = $1', [String(size - 1)]);
    try {
      await expect(
        db.dataSource.transaction((manager) => log.append({ type: 'yank', slug: 'orphan', version: '1.0.0' }, manager)),
      ).rejects.toThrow(/a left sibling is missing/);
      expect(await repository.size()).toBe(size);
    } finally {
      await db.dataSource.query('INSERT INTO "transparency_node" ("level", "index", "hash") VALUES (0, $1, $2)', [
        String(size - 1),
        sibling.hash,
      ]);
    }
  });
});
