import { MemoryResponseStore } from './memory-store';
import type { CachedResponse } from './store';

const answer = (body: string): CachedResponse => ({
  body,
  etag: `W/"${body}"`,
  contentType: 'application/json',
  cacheControl: 'public, max-age=30',
  vary: null,
});

describe('MemoryResponseStore', () => {
  let now = 0;
  const store = (limits = { maxEntries: 3, maxBytes: 1_000_000 }) => new MemoryResponseStore(limits, () => now);

  it('serves an entry of the current generation until its TTL ends', async () => {
    const s = store();
    const { generation } = await s.read('a');
    await s.write('a', generation!, answer('1'), 1000);
    expect((await s.read('a')).entry).toEqual(answer('1'));
    now += 999;
    expect((await s.read('a')).entry).toEqual(answer('1'));
    now += 1;
    expect((await s.read('a')).entry).toBeNull();
  });

  it('retires every entry on bump, and refuses one computed under the old generation', async () => {
    const s = store();
    const { generation: before } = await s.read('a');
    await s.write('a', before!, answer('1'), 1000);
    await s.bump();
    expect(await s.read('a')).toEqual({ generation: String(Number(before) + 1), entry: null });
    // A reader that started before the change stores too late: its answer is not kept.
    await s.write('b', before!, answer('stale'), 1000);
    expect((await s.read('b')).entry).toBeNull();
  });

  it('serves and stores nothing while a marked write is under way, and nothing read before it after it', async () => {
    const s = store();
    const { generation: before } = await s.read('a');
    await s.write('a', before!, answer('before'), 1000);
    await s.beginWrite();
    // The write may have committed: neither the old answer nor one read now (old or new) is kept.
    expect(await s.read('a')).toEqual({ generation: null, entry: null });
    await s.write('a', before!, answer('read before the write'), 1000);
    await s.beginWrite();
    await s.endWrite();
    // Another marked write is still under way.
    expect(await s.read('a')).toEqual({ generation: null, entry: null });
    await s.endWrite();
    const { generation: after, entry } = await s.read('a');
    expect(entry).toBeNull();
    await s.write('a', before!, answer('read before the write'), 1000);
    expect((await s.read('a')).entry).toBeNull();
    await s.write('a', after!, answer('after'), 1000);
    expect((await s.read('a')).entry).toEqual(answer('after'));
  });

  it('drops the least recently used entries past the entry or byte limit', async () => {
    const s = store();
    const { generation } = await s.read('x');
    for (const key of ['a', 'b', 'c']) await s.write(key, generation!, answer(key), 1000);
    await s.read('a');
    await s.write('d', generation!, answer('d'), 1000);
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

  it('keeps the answers people ask again when many answers are asked just once more', async () => {
    const s = store({ maxEntries: 10, maxBytes: 1_000_000 });
    const hot = ['h1', 'h2', 'h3', 'h4', 'h5'];
    for (const key of hot) await s.write(key, '0', answer(key), 60_000);
    for (const key of hot) expect((await s.read(key)).entry).not.toBeNull();
    // Fifty one-off answers (admitted, then never asked again) churn through probation only.
    for (let i = 0; i < 50; i += 1) await s.write(`once-${i}`, '0', answer(`once-${i}`), 60_000);
    expect(s.size).toBe(10);
    for (const key of hot) expect((await s.read(key)).entry).toEqual(answer(key));
    expect((await s.read('once-49')).entry).not.toBeNull();
    expect((await s.read('once-40')).entry).toBeNull();
  });

  it('evicts probation oldest first, then the protected segment oldest first, and sends the protected overflow back to probation', async () => {
    const s = store({ maxEntries: 5, maxBytes: 1_000_000 });
    for (const key of ['a', 'b', 'c', 'd', 'e']) await s.write(key, '0', answer(key), 60_000);
    // Protected holds at most 4 (80% of 5): the fifth hit sends the oldest protected (a) back to probation.
    for (const key of ['a', 'b', 'c', 'd', 'e']) await s.read(key);
    await s.write('f', '0', answer('f'), 60_000);
    expect((await s.read('a')).entry).toBeNull();
    await s.write('g', '0', answer('g'), 60_000);
    expect((await s.read('f')).entry).toBeNull();
    for (const key of ['b', 'c', 'd', 'e', 'g']) expect((await s.read(key)).entry).not.toBeNull();
  });

  it('does a bounded number of bookkeeping moves a request however large the cache and however long it has churned', async () => {
    for (const maxEntries of [100, 10_000]) {
      const s = store({ maxEntries, maxBytes: 1_000_000_000 });
      let worst = 0;
      const measured = async (op: () => Promise<unknown>): Promise<void> => {
        const before = s.bookkeepingMoves;
        await op();
        worst = Math.max(worst, s.bookkeepingMoves - before);
      };
      for (let i = 0; i < 3 * maxEntries; i += 1) {
        await measured(() => s.write(`k${i}`, '0', answer('x'), 60_000));
        if (i % 3 === 0) await measured(() => s.read(`k${i - 1}`));
        if (i % 7 === 0) await measured(() => s.write(`k${i - 2}`, '0', answer('y'), 60_000));
      }
      expect(s.size).toBe(maxEntries);
      // A write links its slot, unlinks the one it replaces and the one it evicts; a hit moves one slot and demotes one.
      expect(worst).toBeLessThanOrEqual(4);
    }
  });
});
