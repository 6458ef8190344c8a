import { CHUNK_NODES, HeldLevelStore } from './held-level-store';

/** A distinct, recognisable 32-byte hash per (level, index). */
function hashOf(level: number, index: number): Buffer {
  const hash = Buffer.alloc(32, level);
  hash.writeUInt32BE(index, 0);
  return hash;
}

function run(level: number, from: number, to: number): Buffer {
  return Buffer.concat(Array.from({ length: to - from }, (_, i) => hashOf(level, from + i)));
}

describe('HeldLevelStore', () => {
  it('holds what was appended across chunks, one node at a time or a chunk-bounded run at a time', () => {
    const store = new HeldLevelStore();
    const total = 2 * CHUNK_NODES + 5;
    // Level 1 grows as appends complete its nodes: one at a time (the last chunk doubles).
    for (let index = 0; index < total; index++) store.append(1, hashOf(1, index));
    // Level 2 grows as a fill reads it: runs that stop at chunk boundaries.
    while (store.count(2) < total) {
      const { from, to } = store.nextRun(2, total);
      expect(to - from).toBeLessThanOrEqual(CHUNK_NODES);
      store.append(2, run(2, from, to));
    }
    expect(store.nodes).toBe(2 * total);
    for (const level of [1, 2]) {
      for (const index of [0, 1, CHUNK_NODES - 1, CHUNK_NODES, CHUNK_NODES + 1, 2 * CHUNK_NODES, total - 1]) {
        expect(store.hash({ level, index })).toEqual(hashOf(level, index));
        expect(store.base64({ level, index })).toBe(hashOf(level, index).toString('base64'));
      }
      expect(store.hash({ level, index: total })).toBeUndefined();
      expect(store.base64({ level, index: total })).toBeUndefined();
    }
  });

  it('refuses a write that crosses a chunk, so no level is ever copied whole', () => {
    const store = new HeldLevelStore();
    store.append(3, run(3, 0, CHUNK_NODES - 1));
    expect(() => store.append(3, run(3, CHUNK_NODES - 1, CHUNK_NODES + 1))).toThrow(RangeError);
    expect(store.nextRun(3, CHUNK_NODES + 10)).toEqual({ from: CHUNK_NODES - 1, to: CHUNK_NODES });
  });

  it('keeps small levels’ base64 and still answers once a level grows past them', () => {
    const store = new HeldLevelStore();
    store.append(5, run(5, 0, 10));
    const first = store.base64({ level: 5, index: 3 });
    expect(store.base64({ level: 5, index: 3 })).toBe(first);
    while (store.count(5) < 5000) {
      const { from, to } = store.nextRun(5, 5000);
      store.append(5, run(5, from, to));
    }
    expect(store.base64({ level: 5, index: 3 })).toBe(hashOf(5, 3).toString('base64'));
    expect(store.base64({ level: 5, index: 4999 })).toBe(hashOf(5, 4999).toString('base64'));
  });

  it('drops the levels below a level, or everything', () => {
    const store = new HeldLevelStore();
    for (const level of [1, 2, 3]) store.append(level, run(level, 0, 4));
    store.dropBelow(3);
    expect([store.count(1), store.count(2), store.count(3)]).toEqual([0, 0, 4]);
    expect(store.hash({ level: 2, index: 0 })).toBeUndefined();
    store.clear();
    expect(store.nodes).toBe(0);
  });
});
