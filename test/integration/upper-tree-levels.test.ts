/**
 * The log's upper tree levels held in process (src/trust/transparency/upper-tree-levels.ts), filled
 * from a real log in the test database: every held hash is the stored one, nothing past the
 * committed size is held, the byte bound raises the lowest level, and a failing read is reported
 * and retried only after a pause.
 */
import {
  consistencyProofNodes,
  foldSubtrees,
  inclusionProofNodes,
  leafHash,
  type NodeId,
  rootNodes,
  verifyInclusion,
} from '../../src/lib/transparency';
import { TransparencyLog } from '../../src/trust/transparency-log/transparency-log';
import { type NodeHashes, nodeKey, TransparencyRepository } from '../../src/trust/transparency-log/transparency.repository';
import { COMMITTED_SIZE_TRUST_MS, UpperTreeLevels } from '../../src/trust/transparency/upper-tree-levels';
import { openTestDatabase, type OpenTestDatabase } from '../support/test-database';

/** Every complete subtree of a tree of `size` leaves at `level` and up. */
function nodesFrom(level: number, size: number): NodeId[] {
  const nodes: NodeId[] = [];
  for (let l = level; Math.floor(size / 2 ** l) > 0; l++)
    for (let index = 0; index < Math.floor(size / 2 ** l); index++) nodes.push({ level: l, index });
  return nodes;
}

describe('UpperTreeLevels over a real log', () => {
  let db: OpenTestDatabase;
  let repository: TransparencyRepository;
  const failures: unknown[] = [];
  const levelsOf = (source: TransparencyRepository, maxBytes?: number, now: () => number = Date.now) =>
    new UpperTreeLevels(
      { size: () => source.size(), levelHashes: (l, f, t) => source.levelHashes(l, f, t) },
      (error) => failures.push(error),
      4,
      maxBytes,
      now,
    );
  const append = (count: number) =>
    db.dataSource.transaction(async (manager) => {
      const log = new TransparencyLog(repository);
      for (let i = 0; i < count; i++)
        await log.append({ type: 'keys', keys_sha256: (Math.random().toString(16).slice(2) + '0'.repeat(64)).slice(0, 64) }, manager);
    });
  /** Looks every node up: the held ones must be the stored hashes. */
  const check = async (levels: UpperTreeLevels, nodes: NodeId[]) => {
    const found: NodeHashes = new Map();
    const missing = levels.lookup(nodes, found);
    const stored = await repository.findNodes(nodes);
    for (const [key, hash] of found) expect(Buffer.from(hash).equals(Buffer.from(stored.get(key)!))).toBe(true);
    return missing;
  };

  beforeAll(async () => {
    db = await openTestDatabase();
    repository = new TransparencyRepository(db.dataSource);
    await append(600);
  });
  afterAll(() => db?.close());

  it('holds every node of level 4 and up, as stored, and hands back the lower ones', async () => {
    const levels = levelsOf(repository);
    levels.sawCommittedSize(600);
    await levels.settled();
    const upper = nodesFrom(4, 600);
    expect(levels.heldNodes).toBe(upper.length);
    expect(await check(levels, upper)).toEqual([]);
    expect(
      await check(levels, [
        { level: 3, index: 0 },
        { level: 0, index: 599 },
      ]),
    ).toEqual([
      { level: 3, index: 0 },
      { level: 0, index: 599 },
    ]);

    // The log grows: the next size a read sees extends what is held, never past what is committed.
    await append(300);
    levels.sawCommittedSize(50_000);
    await levels.settled();
    expect(levels.heldNodes).toBe(nodesFrom(4, 900).length);
    expect(await check(levels, nodesFrom(4, 900))).toEqual([]);
    expect(await check(levels, [{ level: 4, index: 56 }])).toEqual([{ level: 4, index: 56 }]);
    expect(failures).toEqual([]);
  });

  it('fills from the top level down, so the first reads already spare a proof most of its nodes', async () => {
    const read: number[] = [];
    const levels = new UpperTreeLevels(
      { size: () => repository.size(), levelHashes: (l, f, t) => (read.push(l), repository.levelHashes(l, f, t)) },
      (error) => failures.push(error),
      1,
    );
    levels.sawCommittedSize(900);
    await levels.settled();
    // 900 leaves: levels 9 (one node) down to 1.
    expect(read).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(levels.heldNodes).toBe(nodesFrom(1, 900).length);
    expect(await check(levels, nodesFrom(1, 900))).toEqual([]);
  });

  it('stops filling when closed: the read under way is the last, and no later size starts another', async () => {
    const read: number[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const levels = new UpperTreeLevels(
      { size: () => repository.size(), levelHashes: async (l, f, t) => (read.push(l), await gate, repository.levelHashes(l, f, t)) },
      (error) => failures.push(error),
      1,
    );
    levels.sawCommittedSize(900);
    while (read.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const closed = levels.close();
    release();
    await closed;
    expect(read).toEqual([9]);
    levels.sawCommittedSize(900);
    await levels.settled();
    expect(read).toEqual([9]);
    expect(levels.heldNodes).toBe(0);
  });

  it('raises its lowest level to stay within its byte bound', async () => {
    // 1,280 bytes, 40 hashes: level 6 and up of 900 leaves (25 nodes) fit; from level 5 (53) they would not.
    const levels = levelsOf(repository, 2 * 20 * 32);
    levels.sawCommittedSize(900);
    await levels.settled();
    expect(levels.heldNodes).toBe(nodesFrom(6, 900).length);
    expect(
      await check(levels, [
        { level: 5, index: 0 },
        { level: 6, index: 13 },
      ]),
    ).toEqual([{ level: 5, index: 0 }]);
  });

  it('forgets everything held when the log is seen smaller (a failover that lost commits, a restore), and holds the new log after', async () => {
    const other = await openTestDatabase();
    try {
      const otherRepository = new TransparencyRepository(other.dataSource);
      const appendTo = (count: number, tag: string) =>
        other.dataSource.transaction(async (manager) => {
          const log = new TransparencyLog(otherRepository);
          for (let i = 0; i < count; i++) await log.append({ type: 'yank', slug: `${tag}-${i}`, version: '1.0.0' }, manager);
        });
      await appendTo(64, 'first');
      const levels = levelsOf(otherRepository);
      levels.sawCommittedSize(64);
      await levels.settled();
      expect(levels.heldNodes).toBe(nodesFrom(4, 64).length);
      // A proof planned and read before the log is seen smaller folds what it read, but keeps no fold of it.
      const groups = consistencyProofNodes(5, 60);
      expect(groups.some((group) => group.length > 1)).toBe(true);
      const plan = levels.plan(groups);
      const read = await otherRepository.findNodes(plan.toRead);
      // The database comes back with 16 leaves, then grows to 64 again with other entries.
      await other.dataSource.query('DELETE FROM transparency_node WHERE ("index" + 1) * (2 ^ "level")::bigint > 16');
      await other.dataSource.query('DELETE FROM transparency_leaf WHERE "index" >= 16');
      levels.sawCommittedSize(16);
      expect(levels.heldNodes).toBe(0);
      expect(levels.committedAtLeast(60)).toBe(false);
      levels.elements(
        groups,
        plan,
        plan.toRead.map((node) => read.get(nodeKey(node))),
      );
      expect(levels.plan(groups).known.every((element) => element === undefined)).toBe(true);
      await levels.settled();
      await appendTo(48, 'second');
      levels.sawCommittedSize(64);
      await levels.settled();
      const held: NodeHashes = new Map();
      expect(levels.lookup(nodesFrom(4, 64), held)).toEqual([]);
      const stored = await otherRepository.findNodes(nodesFrom(4, 64));
      for (const [key, hash] of held) expect(Buffer.from(hash).equals(Buffer.from(stored.get(key)!))).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('takes a smaller size from a read that started before the held size was seen as older, not as a log that shrank', async () => {
    let now = 7_000_000;
    const levels = levelsOf(repository, undefined, () => now);
    levels.sawCommittedSize(900);
    await levels.settled();
    const held = levels.heldNodes;
    expect(held).toBe(nodesFrom(4, 900).length);
    // A proof's read that started before the fill saw 900 answers late with 600: kept.
    levels.sawCommittedSize(600, now - 1);
    expect(levels.heldNodes).toBe(held);
    expect(levels.committedAtLeast(900)).toBe(true);
    // One that started after it and still sees 600: the log is not the one held.
    now += 1;
    levels.sawCommittedSize(600, now);
    expect(levels.heldNodes).toBe(0);
    await levels.settled();
  });

  it('stands for a committed size only briefly, so a proof reads the head again at least every second', async () => {
    let now = 5_000_000;
    const levels = levelsOf(repository, undefined, () => now);
    expect(levels.committedAtLeast(1)).toBe(false);
    levels.sawCommittedSize(900);
    await levels.settled();
    expect([levels.committedAtLeast(900), levels.committedAtLeast(901)]).toEqual([true, false]);
    now += COMMITTED_SIZE_TRUST_MS;
    expect(levels.committedAtLeast(900)).toBe(false);
  });

  it("reads a proof's leaf and leaf hashes from the leaf table and higher nodes from the node table, each by its position", async () => {
    const size = await repository.size();
    const hex = (hash: Uint8Array | undefined) => (hash ? Buffer.from(hash).toString('hex') : undefined);
    // Level 9's node 1 covers leaves 512-1023: past the head, so missing.
    const nodes: NodeId[] = [
      { level: 0, index: 776 },
      { level: 2, index: 195 },
      { level: 0, index: 5 },
      { level: 9, index: 1 },
    ];
    const stored = await repository.findNodes(nodes);
    const expected = nodes.map((node) => hex(stored.get(nodeKey(node))));
    expect(expected[3]).toBeUndefined();
    for (const withSize of [true, false]) {
      const inclusion = await repository.findInclusion(777, nodes, withSize);
      expect(inclusion.size).toBe(withSize ? size : null);
      expect(hex(inclusion.leaf!.leafHash)).toBe(hex(leafHash(inclusion.leaf!.entry)));
      expect(inclusion.nodes.map(hex)).toEqual(expected);
      const consistency = await repository.findSizeAndNodes(nodes, withSize);
      expect(consistency.size).toBe(withSize ? size : null);
      expect(consistency.nodes.map(hex)).toEqual(expected);
    }
    // Each part alone: the leaf only, leaf hashes only, higher nodes only, the size only, nothing.
    expect((await repository.findInclusion(777, [], false)).nodes).toEqual([]);
    expect((await repository.findSizeAndNodes([nodes[0]!, nodes[2]!], false)).nodes.map(hex)).toEqual([expected[0], expected[2]]);
    expect((await repository.findSizeAndNodes([nodes[1]!], false)).nodes.map(hex)).toEqual([expected[1]]);
    expect(await repository.findSizeAndNodes([], true)).toEqual({ size, nodes: [] });
    expect(await repository.findSizeAndNodes([], false)).toEqual({ size: null, nodes: [] });
    // Past the head there is no leaf.
    expect((await repository.findInclusion(size + 5, [{ level: 0, index: size + 4 }], true)).leaf).toBeNull();
  });

  it('builds proofs that verify from held levels and one read, whichever level is the lowest held', async () => {
    const size = await repository.size();
    const top = rootNodes(size);
    const tops = await repository.findNodes(top);
    const root = foldSubtrees(top.map((node) => tops.get(nodeKey(node))!));
    for (const minLevel of [1, 4]) {
      const levels = new UpperTreeLevels(
        { size: () => repository.size(), levelHashes: (l, f, t) => repository.levelHashes(l, f, t) },
        (error) => failures.push(error),
        minLevel,
      );
      levels.sawCommittedSize(size);
      await levels.settled();
      for (const index of [0, 1, 2, 511, 512, 777, size - 2, size - 1]) {
        const groups = inclusionProofNodes(index, size);
        const plan = levels.plan(groups);
        // Held from level 1: only leaf hashes are left to read.
        if (minLevel === 1) expect(plan.toRead.every((node) => node.level === 0)).toBe(true);
        const read = await repository.findInclusion(index, plan.toRead, false);
        const proof = levels.elements(groups, plan, read.nodes).map((element) => new Uint8Array(Buffer.from(element, 'base64')));
        expect(() => verifyInclusion(index, size, read.leaf!.leafHash, proof, root)).not.toThrow();
      }
    }
    expect(failures).toEqual([]);
  });

  it('reports a failed read once, and tries again only after a pause', async () => {
    const closed = await openTestDatabase();
    await closed.close();
    let now = 1_000_000;
    const levels = levelsOf(new TransparencyRepository(closed.dataSource), undefined, () => now);
    levels.sawCommittedSize(64);
    await levels.settled();
    expect(failures).toHaveLength(1);
    levels.sawCommittedSize(64);
    await levels.settled();
    expect(failures).toHaveLength(1);
    now += 5_000;
    levels.sawCommittedSize(64);
    await levels.settled();
    expect(failures).toHaveLength(2);
    expect(levels.heldNodes).toBe(0);
  });
});
