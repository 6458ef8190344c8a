import { signFreshnessStatement } from '../../lib/freshness';
import { keyA } from '../../lib/integrity/testdata/signing-fixtures';
import { ResponseCache } from './response-cache';
import type { CachedResponse, ResponseCacheStore } from './stores/store';

/** A store that keeps what it is given and the TTL it was given, expiring nothing itself (as Redis on another clock might not yet). */
class RecordingStore implements ResponseCacheStore {
  readonly entries = new Map<string, { entry: CachedResponse; ttlMs: number }>();
  read(key: string) {
    return Promise.resolve({ generation: '0', entry: this.entries.get(key)?.entry ?? null });
  }
  write(key: string, _generation: string, entry: CachedResponse, ttlMs: number) {
    this.entries.set(key, { entry, ttlMs });
    return Promise.resolve();
  }
  bump() {
    return Promise.resolve();
  }
  beginWrite() {
    return Promise.resolve();
  }
  endWrite() {
    return Promise.resolve();
  }
  close() {
    return Promise.resolve();
  }
}

const ISSUED = Date.parse('2026-11-28T00:00:00Z');
const statement = signFreshnessStatement(
  {
    slug: 'demo',
    version: '1.0.0',
    platform: 'universal',
    asset_sha256: null,
    issued_at: '2026-11-28T00:00:00Z',
    expires_at: '2026-11-28T01:00:00Z',
    tree_size: 3,
  },
  keyA.privateKey,
  keyA.jwk.kid,
);
const answer = (headers?: Record<string, string>): CachedResponse => ({
  body: '{}',
  etag: 'W/"1"',
  contentType: 'application/json',
  cacheControl: 'public, max-age=60',
  vary: null,
  ...(headers ? { headers } : {}),
});

describe('ResponseCache and freshness statements', () => {
  let now = ISSUED;
  const open = () => {
    const store = new RecordingStore();
    // Admitted on the second ask (the doorkeeper): each test remembers twice.
    return { store, cache: new ResponseCache(store, 600_000, { warn: () => undefined }, () => now) };
  };
  const rememberTwice = async (cache: ResponseCache, entry: CachedResponse) => {
    await cache.remember('k', '0', entry);
    await cache.remember('k', '0', entry);
  };

  it('keeps an answer without a statement for the configured TTL', async () => {
    const { store, cache } = open();
    await rememberTwice(cache, answer());
    expect(store.entries.get('k')).toEqual({ entry: answer(), ttlMs: 600_000 });
  });

  it('keeps an answer carrying a statement no longer than its reissue period (half an hour-long lifetime), and never serves it after', async () => {
    const { store, cache } = open();
    now = ISSUED + 29 * 60_000;
    await rememberTwice(cache, answer({ 'Registry-Freshness': statement }));
    expect(store.entries.get('k')).toMatchObject({ ttlMs: 60_000, entry: { notAfter: ISSUED + 30 * 60_000 } });
    expect((await cache.lookup('k'))?.entry).not.toBeNull();
    now = ISSUED + 30 * 60_000;
    expect(await cache.lookup('k')).toEqual({ generation: '0', entry: null });
  });

  it('stores nothing once the statement is past its reissue period, or for a header that is not a statement', async () => {
    const { store, cache } = open();
    now = ISSUED + 31 * 60_000;
    await rememberTwice(cache, answer({ 'Registry-Freshness': statement }));
    now = ISSUED;
    await rememberTwice(cache, answer({ 'Registry-Freshness': 'not.a.statement' }));
    expect(store.entries.size).toBe(0);
  });
});

describe('ResponseCache.writing', () => {
  /** A store that records the calls it gets; `failBegin` makes marking fail (Redis unreachable). */
  const recording = (failBegin = false) => {
    const calls: string[] = [];
    const store: ResponseCacheStore = {
      read: () => Promise.resolve({ generation: '0', entry: null }),
      write: () => Promise.resolve(),
      bump: () => (calls.push('bump'), Promise.resolve()),
      beginWrite: () => (calls.push('begin'), failBegin ? Promise.reject(new Error('down')) : Promise.resolve()),
      endWrite: () => (calls.push('end'), Promise.resolve()),
      close: () => Promise.resolve(),
    };
    return { calls, cache: new ResponseCache(store, 1000, { warn: () => undefined }) };
  };

  it('marks the write around the work, ended also when the work fails', async () => {
    const { calls, cache } = recording();
    await expect(cache.writing(async () => (calls.push('work'), 'done'))).resolves.toBe('done');
    await expect(cache.writing(() => (calls.push('work'), Promise.reject(new Error('rolled back'))))).rejects.toThrow('rolled back');
    expect(calls).toEqual(['begin', 'work', 'end', 'begin', 'work', 'end']);
  });

  it('still writes, and empties the cache after, when the mark cannot be set', async () => {
    const { calls, cache } = recording(true);
    await cache.writing(async () => calls.push('work'));
    expect(calls).toEqual(['begin', 'work', 'bump']);
  });
});
