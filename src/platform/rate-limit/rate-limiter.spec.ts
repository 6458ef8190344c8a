import { Clock } from '../../common/clock';
import { defaultValues, type SettingValues } from '../settings/setting-definitions';
import { type RateLimitRule, signInFailureRule } from './rate-limit-rules';
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
const publish: RateLimitRule = { bucket: 'publish', setting: 'ratelimit.publish_per_min', subject: 'ip:192.0.2.1', failOpen: false };
const publishWith = (token: string): RateLimitRule => ({ ...publish, tokenSubject: `token:${token}` });
const vote: RateLimitRule = { bucket: 'wishlist-vote', setting: 'ratelimit.wishlist_vote_per_min', subject: 'user:u1', failOpen: false };
const wish: RateLimitRule = {
  bucket: 'wishlist-request',
  setting: 'ratelimit.wishlist_request_per_hour',
  subject: 'user:u1',
  failOpen: false,
};
const MINUTE = 60_000;

function world(limits: Partial<SettingValues> = {}, store?: CounterStore) {
  const clock = new ManualClock(100 * MINUTE + 15_000);
  let values: SettingValues = {
    ...defaultValues({ hashBudgetBytes: 1 }),
    'ratelimit.public_read_per_min': 3,
    'ratelimit.publish_per_min': 2,
    ...limits,
  };
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
  it('peek judges the next event and counts nothing; reserve counts (sign-in failures, 15-minute windows)', async () => {
    const { limiter, clock } = world({ 'ratelimit.signin_failures_per_account': 2 });
    const account = signInFailureRule('account', 'u1');
    for (let i = 0; i < 5; i++) expect(await limiter.peek(account)).toEqual({ outcome: 'allowed' });
    await limiter.reserve(account);
    expect(await limiter.peek(account)).toEqual({ outcome: 'allowed' });
    await limiter.reserve(account);
    const locked = await limiter.peek(account);
    expect(locked).toMatchObject({ outcome: 'limited', limit: 2, windowMs: 15 * MINUTE });
    expect(await limiter.peek(signInFailureRule('account', 'u2'))).toEqual({ outcome: 'allowed' });
    clock.ms += 15 * MINUTE;
    expect(await limiter.peek(account)).toEqual({ outcome: 'allowed' });
  });

  it('reserves on entry: events started together are counted before any finishes, and a refund hands one back', async () => {
    const { limiter } = world({ 'ratelimit.signin_failures_per_account': 5 });
    const account = signInFailureRule('account', 'u1');
    const entered = await Promise.all(Array.from({ length: 20 }, () => limiter.reserve(account)));
    expect(entered.filter((e) => e.decision.outcome === 'allowed')).toHaveLength(5);
    expect(entered.filter((e) => e.decision.outcome === 'limited')).toHaveLength(15);
    for (const entry of entered.slice(5)) await limiter.refund(entry.key);
    await limiter.refund(entered[0].key);
    expect((await limiter.reserve(account)).decision).toEqual({ outcome: 'allowed' });
    expect((await limiter.reserve(account)).decision).toMatchObject({ outcome: 'limited', limit: 5 });
    await limiter.refund(null);
  });

  it('allows the limit within a window, then refuses until the window ends, saying how long', async () => {
    const { limiter, clock } = world();
    for (let i = 0; i < 3; i++) expect(await limiter.check(read)).toEqual({ outcome: 'allowed' });
    expect(await limiter.check(read)).toEqual({ outcome: 'limited', limit: 3, windowMs: MINUTE, retryAfterSeconds: 45 });
    clock.ms += 44_500;
    expect(await limiter.check(read)).toEqual({ outcome: 'limited', limit: 3, windowMs: MINUTE, retryAfterSeconds: 1 });
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
    const limiter = new RateLimiter(
      new MemoryCounterStore(clock),
      () => (failing ? Promise.reject(new Error('database down')) : Promise.resolve(values)),
      clock,
      { warn: () => undefined },
    );
    expect((await limiter.check(read)).outcome).toBe('allowed');
    failing = true;
    clock.ms += LIMITS_MAX_AGE_MS;
    expect(await limiter.check(read)).toMatchObject({ outcome: 'limited', limit: 1 });
  });

  it('fails open for reads and closed for publish when the counters cannot be reached, warning once', async () => {
    const fail = () => Promise.reject(new Error('connect ECONNREFUSED'));
    const broken: CounterStore = { hit: fail, count: fail, release: fail, claim: fail };
    const w = world({}, broken);
    expect(await w.limiter.check(read)).toEqual({ outcome: 'allowed' });
    expect(await w.limiter.check(publish)).toEqual({ outcome: 'unavailable', retryAfterSeconds: 5 });
    expect(await w.limiter.check(publishWith('abc'))).toEqual({ outcome: 'unavailable', retryAfterSeconds: 5 });
    expect(await w.limiter.check(vote)).toEqual({ outcome: 'unavailable', retryAfterSeconds: 5 });
    expect(await w.limiter.startCooldown('reconcile', 'plugin:p1')).toEqual({ outcome: 'unavailable', retryAfterSeconds: 5 });
    expect(w.warnings).toHaveLength(1);
    expect(w.warnings[0]).toContain('ECONNREFUSED');
  });
});

describe('RateLimiter on publish with a bearer token', () => {
  it('counts a token that never verifies against the address, however many fresh tokens there are', async () => {
    const { limiter } = world();
    const first = await limiter.check(publishWith('random-1'));
    expect(first).toMatchObject({ outcome: 'allowed', provisional: { key: expect.stringContaining('ip:192.0.2.1') } });
    expect((await limiter.check(publishWith('random-2'))).outcome).toBe('allowed');
    expect(await limiter.check(publishWith('random-3'))).toMatchObject({ outcome: 'limited', limit: 2 });
    // The address is spent: a request without a token is refused too.
    expect((await limiter.check(publish)).outcome).toBe('limited');
  });

  it('gives the address its count back once the token verifies, and counts the token on its own from then on', async () => {
    const { limiter } = world();
    const first = await limiter.check(publishWith('good'));
    if (first.outcome !== 'allowed' || !first.provisional) throw new Error('expected a provisional charge');
    expect(await limiter.tokenVerified(first.provisional)).toEqual({ outcome: 'allowed' });
    // Counted under the token now, not the address: no provisional charge, and the address is untouched.
    expect(await limiter.check(publishWith('good'))).toEqual({ outcome: 'allowed' });
    expect(await limiter.check(publishWith('good'))).toMatchObject({ outcome: 'limited', limit: 2 });
    expect((await limiter.check(publishWith('random-1'))).outcome).toBe('allowed');
    expect((await limiter.check(publishWith('random-2'))).outcome).toBe('allowed');
    expect((await limiter.check(publishWith('random-3'))).outcome).toBe('limited');
  });

  it('holds the address count while a token is being verified, and refuses a verified token past its own limit', async () => {
    const { limiter } = world({ 'ratelimit.publish_per_min': 1 });
    const good = await limiter.check(publishWith('good'));
    if (good.outcome !== 'allowed' || !good.provisional) throw new Error('expected a provisional charge');
    expect((await limiter.check(publishWith('random'))).outcome).toBe('limited');
    expect(await limiter.tokenVerified(good.provisional)).toEqual({ outcome: 'allowed' });
    // The refused request still counts against the address; the verified one no longer does.
    expect((await limiter.check(publishWith('random'))).outcome).toBe('limited');
    expect(await limiter.check(publishWith('good'))).toMatchObject({ outcome: 'limited', limit: 1 });
  });
});

describe('RateLimiter on signed-in actions and cooldowns', () => {
  it('counts per-hour limits in hour windows, saying how long until the hour ends', async () => {
    const { limiter, clock } = world({ 'ratelimit.wishlist_request_per_hour': 2 });
    // 15 s into minute 100, which is minute 40 of hour 1.
    expect((await limiter.check(wish)).outcome).toBe('allowed');
    clock.ms += 10 * MINUTE;
    expect((await limiter.check(wish)).outcome).toBe('allowed');
    expect(await limiter.check(wish)).toEqual({ outcome: 'limited', limit: 2, windowMs: 60 * MINUTE, retryAfterSeconds: 10 * 60 - 15 });
    expect((await limiter.check({ ...wish, subject: 'user:u2' })).outcome).toBe('allowed');
    clock.ms += 10 * MINUTE;
    expect((await limiter.check(wish)).outcome).toBe('allowed');
  });

  it('allows one action a cooldown, then says how long is left, per subject', async () => {
    const { limiter, clock } = world({ 'ratelimit.reconcile_cooldown_s': 60 });
    expect(await limiter.startCooldown('reconcile', 'plugin:p1')).toEqual({ outcome: 'allowed' });
    clock.ms += 20_500;
    expect(await limiter.startCooldown('reconcile', 'plugin:p1')).toEqual({
      outcome: 'cooling-down',
      cooldownSeconds: 60,
      retryAfterSeconds: 40,
    });
    expect(await limiter.startCooldown('reconcile', 'plugin:p2')).toEqual({ outcome: 'allowed' });
    clock.ms += 39_500;
    expect(await limiter.startCooldown('reconcile', 'plugin:p1')).toEqual({ outcome: 'allowed' });
    expect((await limiter.startCooldown('reconcile', 'plugin:p1')).outcome).toBe('cooling-down');
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
