import { generateKeyPairSync } from 'node:crypto';
import { type FreshnessStatement, signFreshnessStatement } from '../lib/freshness';
import { SignedStatements } from './signed-statements';

const statement = (tree_size: number): FreshnessStatement => ({
  slug: 'demo',
  version: '1.0.0',
  platform: 'universal',
  asset_sha256: null,
  issued_at: '2026-11-28T10:00:00Z',
  expires_at: '2026-11-29T10:00:00Z',
  tree_size,
});

/** A real Ed25519 signer that counts its signatures. */
function signer(kid: string) {
  const { privateKey } = generateKeyPairSync('ed25519');
  const counted = { kid, signed: 0, sign: (s: FreshnessStatement) => (counted.signed++, signFreshnessStatement(s, privateKey, kid)) };
  return counted;
}

describe('SignedStatements', () => {
  it('signs a statement once per key and serves the same bytes after', () => {
    const kept = new SignedStatements();
    const first = signer('k1');
    const jws = kept.get(first, statement(1));
    expect(kept.get(first, statement(1))).toBe(jws);
    expect(first.signed).toBe(1);
    // Other content, or another key (a rotation): signed anew.
    kept.get(first, statement(2));
    const second = signer('k2');
    expect(kept.get(second, statement(1))).not.toBe(jws);
    expect([first.signed, second.signed]).toEqual([2, 1]);
  });

  it('keeps a bounded number, dropping the least recently used', () => {
    const kept = new SignedStatements();
    const key = signer('k1');
    for (let size = 0; size <= 4096; size++) kept.get(key, statement(size));
    expect(key.signed).toBe(4097);
    kept.get(key, statement(4096));
    expect(key.signed).toBe(4097);
    kept.get(key, statement(0));
    expect(key.signed).toBe(4098);
  });
});
