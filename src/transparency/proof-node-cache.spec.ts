import type { NodeId } from '../lib/transparency';
import { ProofNodeCache } from './proof-node-cache';
import type { NodeHashes } from '../transparency-log/transparency.repository';

const hashOf = (n: number) => new Uint8Array(32).fill(n % 256);

function read(nodes: NodeId[]): NodeHashes {
  return new Map(nodes.map((node) => [`${node.level}/${node.index}`, hashOf(node.level * 1000 + node.index)]));
}

describe('ProofNodeCache', () => {
  it('keeps only nodes at or above its lowest level and hands back the rest to read', () => {
    const cache = new ProofNodeCache(6, 100);
    cache.remember(read([{ level: 0, index: 3 }, { level: 5, index: 1 }, { level: 6, index: 2 }, { level: 19, index: 0 }]));
    expect(cache.size).toBe(2);
    const found: NodeHashes = new Map();
    const missing = cache.lookup([{ level: 0, index: 3 }, { level: 5, index: 1 }, { level: 6, index: 2 }, { level: 6, index: 3 }, { level: 19, index: 0 }], found);
    expect(missing).toEqual([{ level: 0, index: 3 }, { level: 5, index: 1 }, { level: 6, index: 3 }]);
    expect([...found.keys()]).toEqual(['6/2', '19/0']);
    expect(found.get('6/2')).toEqual(hashOf(6002));
  });

  it('never holds more than its bound: the oldest node leaves first', () => {
    const cache = new ProofNodeCache(6, 10);
    for (let index = 0; index < 25; index++) cache.remember(read([{ level: 7, index }]));
    expect(cache.size).toBe(10);
    const found: NodeHashes = new Map();
    const wanted = Array.from({ length: 25 }, (_, index) => ({ level: 7, index }));
    expect(cache.lookup(wanted, found)).toEqual(wanted.slice(0, 15));
    expect([...found.keys()]).toEqual(wanted.slice(15).map((node) => `7/${node.index}`));
  });

  it('does not grow on a node it already holds', () => {
    const cache = new ProofNodeCache(6, 2);
    cache.remember(read([{ level: 6, index: 0 }, { level: 6, index: 1 }]));
    cache.remember(read([{ level: 6, index: 0 }]));
    const found: NodeHashes = new Map();
    expect(cache.lookup([{ level: 6, index: 0 }, { level: 6, index: 1 }], found)).toEqual([]);
  });
});
