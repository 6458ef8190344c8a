import { Clock } from '../../common/clock';
import { VersionedCache, type VersionedSource } from './settings-cache';

class ManualClock extends Clock {
  ms = 1_000_000;
  now(): Date {
    return new Date(this.ms);
  }
}

/** A source whose stored value and version the test moves by hand, counting the work done. */
class FakeSource implements VersionedSource<string> {
  version_ = '1';
  value = 'a';
  probes = 0;
  loads = 0;
  /** While set, each load waits until the test releases it (in any order). */
  holdLoads = false;
  held: (() => void)[] = [];

  async version(): Promise<string> {
    this.probes += 1;
    return this.version_;
  }

  async load(): Promise<{ version: string; value: string }> {
    this.loads += 1;
    const snapshot = { version: this.version_, value: this.value };
    if (this.holdLoads) await new Promise<void>((release) => this.held.push(release));
    return snapshot;
  }
}

describe('VersionedCache', () => {
  let clock: ManualClock;
  let source: FakeSource;
  let cache: VersionedCache<string>;
  beforeEach(() => {
    clock = new ManualClock();
    source = new FakeSource();
    cache = new VersionedCache(source, clock, 5_000);
  });

  it('loads once, then answers from memory while the version stands and the copy is young', async () => {
    expect(await cache.get()).toBe('a');
    expect(await cache.get()).toBe('a');
    expect(source.loads).toBe(1);
    expect(source.probes).toBe(1);
  });

  it('reloads at once when the version moved (another instance wrote)', async () => {
    await cache.get();
    source.value = 'b';
    source.version_ = '2';
    expect(await cache.get()).toBe('b');
    expect(source.loads).toBe(2);
  });

  it('reloads after the age limit even when the version did not move', async () => {
    await cache.get();
    source.value = 'b';
    clock.ms += 5_000;
    expect(await cache.get()).toBe('b');
  });

  it('forgets its copy on invalidate, and never keeps a load begun before it', async () => {
    const settle = () => new Promise((resolve) => setImmediate(resolve));
    source.holdLoads = true;
    const early = cache.get();
    await settle();
    source.value = 'b';
    cache.invalidate();
    const late = cache.get();
    await settle();
    expect(source.loads).toBe(2);
    source.held[1]();
    expect(await late).toBe('b');
    source.held[0]();
    expect(await early).toBe('a');
    expect(await cache.get()).toBe('b');
    expect(source.loads).toBe(2);
  });

  it('shares one load between concurrent readers', async () => {
    await Promise.all([cache.get(), cache.get(), cache.get()]);
    expect(source.loads).toBe(1);
  });
});
