import { signedRelease, keyA, keyB, keyC } from './testdata/signing-fixtures';
import type { KeySet } from './types';
import { verifyRelease } from './verify';
import type { KeySetSource } from './key-resolver';

const EXPECTED = { slug: 'demo', version: '1.0.0' };
const SIGNED_BY_A = signedRelease();

function verifyWith(keys: KeySetSource) {
  return verifyRelease({ release: SIGNED_BY_A, keys, expected: EXPECTED });
}

/** A key-set fetcher that records how often it was called. */
function countingFetcher(...answers: KeySet[]): { fetchKeySet: () => Promise<KeySet>; calls: () => number } {
  let calls = 0;
  return {
    fetchKeySet: async () => answers[Math.min(calls++, answers.length - 1)] as KeySet,
    calls: () => calls,
  };
}

describe('key rotation', () => {
  it('a release signed by the previous key verifies after rotation ({B current, A previous})', async () => {
    await expect(verifyWith({ keys: [keyB.jwk, keyA.jwk] })).resolves.toMatchObject({ ok: true, kid: keyA.jwk.kid });
  });

  it('once A is displaced ({C, B}) a static key set fails with KID_UNKNOWN', async () => {
    await expect(verifyWith({ keys: [keyC.jwk, keyB.jwk] })).resolves.toMatchObject({ ok: false, code: 'KID_UNKNOWN' });
  });

  it('with a cached {C, B} and a fetcher returning the same, fails KID_UNKNOWN after exactly one refresh', async () => {
    const fetcher = countingFetcher({ keys: [keyC.jwk, keyB.jwk] });
    const result = await verifyWith({ cached: { keys: [keyC.jwk, keyB.jwk] }, fetchKeySet: fetcher.fetchKeySet });
    expect(result).toMatchObject({ ok: false, code: 'KID_UNKNOWN' });
    expect(!result.ok && result.message).toMatch(/absent from key set after refresh/);
    expect(fetcher.calls()).toBe(1);
  });

  it('with only a fetcher, loads once and refreshes once (two calls), then fails KID_UNKNOWN', async () => {
    const fetcher = countingFetcher({ keys: [keyC.jwk, keyB.jwk] });
    await expect(verifyWith({ fetchKeySet: fetcher.fetchKeySet })).resolves.toMatchObject({ ok: false, code: 'KID_UNKNOWN' });
    expect(fetcher.calls()).toBe(2);
  });

  it('a stale cache is healed by the one refresh, and the fresh set is handed back', async () => {
    const fresh: KeySet = { keys: [keyA.jwk, keyB.jwk] };
    const fetcher = countingFetcher(fresh);
    const result = await verifyWith({ cached: { keys: [keyB.jwk, keyC.jwk] }, fetchKeySet: fetcher.fetchKeySet });
    expect(result).toMatchObject({ ok: true, kid: keyA.jwk.kid, refreshedKeySet: fresh });
    expect(fetcher.calls()).toBe(1);
  });

  it('a cached set that already has the kid causes no fetch', async () => {
    const fetcher = countingFetcher({ keys: [] });
    const result = await verifyWith({ cached: { keys: [keyA.jwk] }, fetchKeySet: fetcher.fetchKeySet });
    expect(result).toMatchObject({ ok: true });
    expect(result.ok && result.refreshedKeySet).toBeUndefined();
    expect(fetcher.calls()).toBe(0);
  });

  it('a failing signature also gets exactly one refresh before SIGNATURE_INVALID', async () => {
    // A key set that lists B's public key under A's kid: the kid resolves, the signature cannot.
    const impostor = { keys: [{ ...keyB.jwk, kid: keyA.jwk.kid }] };
    const fetcher = countingFetcher(impostor);
    const result = await verifyWith({ cached: impostor, fetchKeySet: fetcher.fetchKeySet });
    expect(result).toMatchObject({ ok: false, code: 'SIGNATURE_INVALID' });
    expect(fetcher.calls()).toBe(1);
  });

  it('a fetcher failure is an operational error, surfaced as a rejection', async () => {
    const source = { fetchKeySet: () => Promise.reject(new Error('registry unreachable')) };
    await expect(verifyWith(source)).rejects.toThrow('registry unreachable');
  });
});
