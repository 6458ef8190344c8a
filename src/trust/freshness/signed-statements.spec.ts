import { generateKeyPairSync } from 'node:crypto';
import { type FreshnessStatement, signFreshnessStatement } from '../../lib/freshness';
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
  it('keeps a statement from its second ask and serves the same bytes after', () => {
    const kept = new SignedStatements();
    const first = signer('k1');
    const jws = kept.get(first, statement(1));
    expect(kept.size).toBe(0);
    // Ed25519 is deterministic: the second signature is the same bytes, and this one is kept.
    expect(kept.get(first, statement(1))).toBe(jws);
    expect(kept.get(first, statement(1))).toBe(jws);
    expect(first.signed).toBe(2);
    expect(kept.size).toBe(1);
    // Other content, or another key (a rotation): signed anew.
    kept.get(first, statement(2));
    const second = signer('k2');
    expect(kept.get(second, statement(1))).not.toBe(jws);
    expect([first.signed, second.signed]).toEqual([3, 1]);
  });

  it('keeps (almost) nothing of statements asked once', () => {
    const kept = new SignedStatements();
    const key = { kid: 'k1', sign: (s: FreshnessStatement) => `jws-${s.tree_size}` };
    for (let size = 0; size < 20_000; size++) kept.get(key, statement(size));
    // Only the doorkeeper's false "seen"s: a few percent.
    expect(kept.size).toBeLessThan(20_000 * 0.07);
  });

  it('keeps a bounded number, and what is asked again stays', () => {
    const kept = new SignedStatements();
    let signed = 0;
    const key = { kid: 'k1', sign: (s: FreshnessStatement) => (signed++, `jws-${s.tree_size}`) };
    const ask = (size: number) => kept.get(key, statement(size));
    for (let size = 0; size < 10_000; size++) {
      ask(size);
      ask(size);
      // One statement asked throughout: never signed again once kept.
      ask(-1);
      expect(kept.size).toBeLessThanOrEqual(4096);
    }
    const before = signed;
    ask(-1);
    ask(9_999);
    expect(signed).toBe(before);
    // Long gone: signed anew.
    ask(0);
    expect(signed).toBe(before + 1);
  });
});
