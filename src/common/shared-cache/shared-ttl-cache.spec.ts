import { Clock } from '../clock';
import { MemoryTtlStore } from './memory-ttl-store';
import { SharedTtlCache } from './shared-ttl-cache';
import type { TtlStore } from './ttl-store';

class ManualClock extends Clock {
  ms = 1_000_000;
  now(): Date {
    return new Date(this.ms);
  }
}

const silent = { warn: () => undefined };

describe('SharedTtlCache', () => {
  it('answers from the store until the stamped expiry, for any cache over the same store', async () => {
    const clock = new ManualClock();
    const store = new MemoryTtlStore(() => clock.ms);
    const a = new SharedTtlCache<number>(store, 'n', 1000, clock, silent);
    const b = new SharedTtlCache<number>(store, 'n', 1000, clock, silent);
    let computed = 0;
    const compute = () => Promise.resolve(++computed);
    expect(await a.get('k', compute)).toBe(1);
    clock.ms += 999;
    expect(await b.get('k', compute)).toBe(1);
    clock.ms += 1;
    expect(await b.get('k', compute)).toBe(2);
    expect(await a.get('k', compute)).toBe(2);
  });

  it('computes once for callers that arrive together', async () => {
    const clock = new ManualClock();
    const cache = new SharedTtlCache<string>(new MemoryTtlStore(() => clock.ms), 'n', 1000, clock, silent);
    let computed = 0;
    const compute = () => new Promise<string>((resolve) => setTimeout(() => resolve(`v${++computed}`), 5));
    const answers = await Promise.all(Array.from({ length: 5 }, () => cache.get('k', compute)));
    expect(answers).toEqual(['v1', 'v1', 'v1', 'v1', 'v1']);
  });

  it('computes the value when the store fails, and says so once', async () => {
    const broken: TtlStore = { get: () => Promise.reject(new Error('down')), set: () => Promise.reject(new Error('down')) };
    const warnings: string[] = [];
    const cache = new SharedTtlCache<number>(broken, 'n', 1000, new ManualClock(), { warn: (m) => warnings.push(m) });
    expect(await cache.get('k', () => Promise.resolve(7))).toBe(7);
    expect(await cache.get('k', () => Promise.resolve(8))).toBe(8);
    expect(warnings).toHaveLength(1);
  });

  it('bounds the memory store to its entry limit, oldest first', async () => {
    const store = new MemoryTtlStore(() => 0, 2);
    for (const key of ['a', 'b', 'c']) await store.set(key, key, 1000);
    expect(await store.get('a')).toBeNull();
    expect(await store.get('c')).toBe('c');
  });
});
