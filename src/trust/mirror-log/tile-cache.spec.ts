import { TileCache } from './tile-cache';

const tile = (bytes: number, fill = 1) => Buffer.alloc(bytes, fill);

describe('TileCache', () => {
  it('never holds more tiles than its bound: the least recently used leaves first', () => {
    const cache = new TileCache(3, 1_000_000);
    for (const path of ['a', 'b', 'c']) cache.put(path, tile(10));
    expect(cache.get('a')).toEqual(tile(10));
    cache.put('d', tile(10));
    expect(cache.size).toBe(3);
    expect(cache.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((path) => cache.get(path) !== undefined)).toEqual([true, true, true]);
  });

  it('never holds more bytes than its bound, and takes no tile larger than all of it', () => {
    const cache = new TileCache(100, 100);
    cache.put('a', tile(40));
    cache.put('b', tile(40));
    cache.put('c', tile(40));
    expect(cache.heldBytes).toBe(80);
    expect(cache.get('a')).toBeUndefined();
    cache.put('huge', tile(101));
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.heldBytes).toBe(80);
  });

  it('counts a tile put again once', () => {
    const cache = new TileCache(2, 100);
    cache.put('a', tile(30, 1));
    cache.put('a', tile(30, 2));
    expect(cache.size).toBe(1);
    expect(cache.heldBytes).toBe(30);
    expect(cache.get('a')).toEqual(tile(30, 2));
  });
});
