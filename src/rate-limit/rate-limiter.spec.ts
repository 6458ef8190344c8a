import { Clock } from '../common/clock';
import { defaultValues, type SettingValues } from '../settings/setting-definitions';
import type { RateLimitRule } from './rate-limit-rules';
import { LIMITS_MAX_AGE_MS, RateLimiter } from './rate-limiter';
import type { CounterStore } from './stores/counter-store';
import { MemoryCounterStore } from './stores/memory-counter-store';

class ManualClock extends Clock {
  constructor(public ms: number) {
    super();
  }
  now(): Date {
    return new Date(this.ms);
  }
}

const read: RateLimitRule = { bucket: 'read', setting: 'ratelimit.public_read_per_min', subject: 'ip:192.0.2.1', failOpen: true };
const publish: RateLimitRule = { bucket: 'publish', setting: 'ratelimit.publish_per_min', subject: 'token:abc', failOpen: false };
const MINUTE = 60_000;

function world(limits: Partial<SettingValues> = {}, store?: CounterStore) {
  const clock = new ManualClock(100 * MINUTE + 15_000);
  let values: SettingValues = { ...defaultValues({ hashBudgetBytes: 1 }), 'ratelimit.public_read_per_min': 3, 'ratelimit.publish_per_min': 2, ...limits };
  let reads = 0;
  const warnings: string[] = [];
  const limiter = new RateLimiter(
    store ?? new MemoryCounterStore(clock),
    () => {
      reads += 1;
      return Promise.resolve(values);
    },
    clock,
    { warn: (m) => warnings.push(m) },
  );
  return { clock, limiter, warnings, reads: () => reads, setLimits: (next: Partial<SettingValues>) => (values = { ...values, ...next }) };
}

describe('RateLimiter', () => {
  it('allows the limit within a window, then refuses until the window ends, saying how long', async () => {
    const { limiter, clock } = world();
    for (let i = 0; i < 3; i++) expect(await limiter.check(read)).toEqual({ outcome: 'allowed' });
    expect(await limiter.check(read)).toEqual({ outcome: 'limited', limit: 3, retryAfterSeconds: 45 });
    clock.ms += 44_500;
    expect(await limiter.check(read)).toEqual({ outcome: 'limited', limit: 3, retryAfterSeconds: 1 });
    clock.ms += 500;
    expect(await limiter.check(read)).toEqual({ outcome: 'allowed' });
  });

  it('keeps buckets and subjects apart', async () => {
    const { limiter } = world();
    for (let i = 0; i < 3; i++) await limiter.check(read);
    expect((await limiter.check(read)).outcome).toBe('limited');
    expect((await limiter.check({ ...read, subject: 'ip:192.0.2.2' })).outcome).toBe('allowed');
    expect((await limiter.check(publish)).outcome).toBe('allowed');
  });

  it('reads the limits at most every few seconds, and at once after a local change', async () => {
    const w = world();
    await w.limiter.check(read);
    await w.limiter.check(read);
    expect(w.reads()).toBe(1);
    w.setLimits({ 'ratelimit.public_read_per_min': 1 });
    expect((await w.limiter.check(read)).outcome).toBe('allowed');
    w.clock.ms += LIMITS_MAX_AGE_MS;
    expect(await w.limiter.check(read)).toMatchObject({ outcome: 'limited', limit: 1 });
    w.setLimits({ 'ratelimit.public_read_per_min': 100 });
    w.limiter.limitsChanged();
    expect((await w.limiter.check(read)).outcome).toBe('allowed');
    expect(w.reads()).toBe(3);
  });

  it('keeps the last limits known while the settings cannot be read', async () => {
    const clock = new ManualClock(0);
    let failing = false;
    const values = { ...defaultValues({ hashBudgetBytes: 1 }), 'ratelimit.public_read_per_min': 1 };
    const limiter = new RateLimiter(new MemoryCounterStore(clock), () => (failing ? Promise.reject(new Error('database down')) : Promise.resolve(values)), clock, { warn: () => undefined });
    expect((await limiter.check(read)).outcome).toBe('allowed');
    failing = true;
    clock.ms += LIMITS_MAX_AGE_MS;
    expect(await limiter.check(read)).toMatchObject({ outcome: 'limited', limit: 1 });
  });

  it('fails open for reads and closed for publish when the counters cannot be reached, warning once', async () => {
    const broken: CounterStore = { hit: () => Promise.reject(new Error('connect ECONNREFUSED')) };
    const w = world({}, broken);
    expect(await w.limiter.check(read)).toEqual({ outcome: 'allowed' });
    expect(await w.limiter.check(publish)).toEqual({ outcome: 'unavailable', retryAfterSeconds: 5 });
    expect(w.warnings).toHaveLength(1);
    expect(w.warnings[0]).toContain('ECONNREFUSED');
  });
});

describe('MemoryCounterStore', () => {
  it('expires counters and stays bounded, letting new subjects through while full', async () => {
    const clock = new ManualClock(0);
    const store = new MemoryCounterStore(clock, 2);
    expect(await store.hit('a', 1_000)).toBe(1);
    expect(await store.hit('a', 1_000)).toBe(2);
    expect(await store.hit('b', 5_000)).toBe(1);
    expect(await store.hit('c', 1_000)).toBe(1);
    expect(await store.hit('c', 1_000)).toBe(1);
    expect(store.size).toBe(2);
    clock.ms = 1_000;
    expect(await store.hit('a', 1_000)).toBe(1);
    clock.ms = 5_000;
    expect(await store.hit('c', 1_000)).toBe(1);
    expect(await store.hit('c', 1_000)).toBe(2);
    expect(store.size).toBe(1);
  });
});
