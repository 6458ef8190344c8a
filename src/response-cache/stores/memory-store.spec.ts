import { MemoryResponseStore } from './memory-store';
import type { CachedResponse } from './store';

const answer = (body: string): CachedResponse => ({ body, etag: `W/"${body}"`, contentType: 'application/json', cacheControl: 'public, max-age=30', vary: null });

describe('MemoryResponseStore', () => {
  let now = 0;
  const store = (limits = { maxEntries: 3, maxBytes: 1_000_000 }) => new MemoryResponseStore(limits, () => now);

  it('serves an entry of the current generation until its TTL ends', async () => {
    const s = store();
    const { generation } = await s.read('a');
    await s.write('a', generation, answer('1'), 1000);
    expect((await s.read('a')).entry).toEqual(answer('1'));
    now += 999;
    expect((await s.read('a')).entry).toEqual(answer('1'));
    now += 1;
    expect((await s.read('a')).entry).toBeNull();
  });

  it('retires every entry on bump, and refuses one computed under the old generation', async () => {
    const s = store();
    const { generation: before } = await s.read('a');
    await s.write('a', before, answer('1'), 1000);
    await s.bump();
    expect(await s.read('a')).toEqual({ generation: String(Number(before) + 1), entry: null });
    // A reader that started before the change stores too late: its answer is not kept.
    await s.write('b', before, answer('stale'), 1000);
    expect((await s.read('b')).entry).toBeNull();
  });

  it('drops the least recently used entries past the entry or byte limit', async () => {
    const s = store();
    const { generation } = await s.read('x');
    for (const key of ['a', 'b', 'c']) await s.write(key, generation, answer(key), 1000);
    await s.read('a');
    await s.write('d', generation, answer('d'), 1000);
    expect(s.size).toBe(3);
    expect((await s.read('b')).entry).toBeNull();
    expect((await s.read('a')).entry).not.toBeNull();

    const small = store({ maxEntries: 100, maxBytes: 1200 });
    await small.write('big', '0', answer('x'.repeat(400)), 1000);
    await small.write('big2', '0', answer('y'.repeat(400)), 1000);
    expect((await small.read('big')).entry).toBeNull();
    expect((await small.read('big2')).entry).not.toBeNull();
    await small.write('huge', '0', answer('z'.repeat(1000)), 1000);
    expect((await small.read('huge')).entry).toBeNull();
  });
});
