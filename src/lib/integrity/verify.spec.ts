import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { canonicalJsonBytes } from './canonical-json';
import { signCompact } from './jws';
import {
  ASSET_BYTES,
  demoPayload,
  integrityAsset,
  keyA,
  keyB,
  OTHER_ASSET_BYTES,
  releaseWithJws,
  signedRelease,
} from './testdata/signing-fixtures';
import type { ReleaseRecord } from './types';
import { VERIFICATION_ERROR_CODES, VERIFICATION_ERRORS } from './verification-errors';
import { verifyRelease, type AssetToVerify, type VerifyReleaseInput } from './verify';

const EXPECTED = { slug: 'demo', version: '1.0.0' };
const KEYS = { keys: [keyB.jwk, keyA.jwk] };

function verifyDemo(overrides: Partial<VerifyReleaseInput> = {}) {
  return verifyRelease({ release: signedRelease(), keys: KEYS, expected: EXPECTED, ...overrides });
}

describe('verifyRelease: a genuine release', () => {
  let workDir: string;
  beforeAll(() => {
    workDir = mkdtempSync(join(tmpdir(), 'integrity-verify-'));
  });
  afterAll(() => rmSync(workDir, { recursive: true, force: true }));

  it('verifies the signature alone and returns the signed payload and kid', async () => {
    await expect(verifyDemo()).resolves.toEqual({ ok: true, payload: demoPayload(), kid: keyA.jwk.kid });
  });

  it.each<[string, () => AssetToVerify]>([
    ['bytes', () => ({ name: 'demo.zip', bytes: ASSET_BYTES })],
    [
      'a file path',
      () => {
        const path = join(workDir, 'demo.zip');
        writeFileSync(path, ASSET_BYTES);
        return { name: 'demo.zip', path };
      },
    ],
    ['a stream of small chunks', () => ({ name: 'demo.zip', stream: Readable.from(chunks(ASSET_BYTES, 7)) })],
  ])('verifies an asset given as %s', async (_label, asset) => {
    const result = await verifyDemo({ asset: asset() });
    expect(result).toEqual({ ok: true, payload: demoPayload(), kid: keyA.jwk.kid, asset: integrityAsset('demo.zip', ASSET_BYTES) });
  });

  it('checks each asset against its own signed entry', async () => {
    await expect(verifyDemo({ asset: { name: 'demo-extra.bin', bytes: OTHER_ASSET_BYTES } })).resolves.toMatchObject({ ok: true });
    await expect(verifyDemo({ asset: { name: 'demo-extra.bin', bytes: ASSET_BYTES } })).resolves.toMatchObject({ code: 'HASH_MISMATCH' });
  });

  it('refuses ambiguous asset input rather than guessing which bytes to hash', async () => {
    await expect(verifyDemo({ asset: { name: 'demo.zip', bytes: ASSET_BYTES, path: '/dev/null' } })).rejects.toThrow(/at most one/);
  });
});

describe('verifyRelease: asset verdicts', () => {
  it('HASH_MISMATCH when one byte of the asset changed', async () => {
    const altered = ASSET_BYTES.slice();
    altered[100] ^= 0x20;
    const result = await verifyDemo({ asset: { name: 'demo.zip', bytes: altered } });
    expect(result).toMatchObject({ ok: false, code: 'HASH_MISMATCH' });
  });

  it('HASH_MISMATCH (not a crash) when the asset is truncated', async () => {
    const result = await verifyDemo({ asset: { name: 'demo.zip', bytes: ASSET_BYTES.subarray(0, 10) } });
    expect(result).toMatchObject({ ok: false, code: 'HASH_MISMATCH' });
  });

  it('SIZE_MISMATCH when the hash matches but the signed size does not', async () => {
    const payload = demoPayload({ assets: [integrityAsset('demo.zip', ASSET_BYTES, { size: ASSET_BYTES.length + 1 })] });
    const result = await verifyDemo({ release: signedRelease(payload), asset: { name: 'demo.zip', bytes: ASSET_BYTES } });
    expect(result).toMatchObject({ ok: false, code: 'SIZE_MISMATCH' });
  });

  it('ASSET_NOT_SIGNED when the asset is missing from the signed list (over the hash budget)', async () => {
    const payload = demoPayload({ assets: [integrityAsset('demo.zip', ASSET_BYTES)] });
    const release: ReleaseRecord = { ...signedRelease(payload), assets: [{ name: 'huge.iso', url: '/downloads/huge.iso', size: 6e8 }] };
    const result = await verifyDemo({ release, asset: { name: 'huge.iso', bytes: new Uint8Array([1]) } });
    expect(result).toMatchObject({ ok: false, code: 'ASSET_NOT_SIGNED' });
    expect(!result.ok && result.message).toMatch(/hash budget/);
  });

  it('trusts only the signed list: the unsigned integrity.assets copy cannot vouch for other bytes', async () => {
    const forged = new Uint8Array(Buffer.from('malware'));
    const genuine = signedRelease();
    const release: ReleaseRecord = {
      ...genuine,
      assets: [{ name: 'demo.zip', url: '/x', size: forged.length }],
      integrity: { jws: genuine.integrity!.jws, assets: [integrityAsset('demo.zip', forged)] },
    };
    await expect(verifyDemo({ release, asset: { name: 'demo.zip', bytes: forged } })).resolves.toMatchObject({ code: 'HASH_MISMATCH' });
    await expect(verifyDemo({ release, asset: { name: 'demo.zip', bytes: ASSET_BYTES } })).resolves.toMatchObject({ ok: true });
  });
});

describe('verifyRelease: release-level verdicts', () => {
  it('INTEGRITY_MISSING for a legacy release', async () => {
    const { integrity: _omitted, ...legacy } = signedRelease();
    await expect(verifyDemo({ release: legacy })).resolves.toMatchObject({ ok: false, code: 'INTEGRITY_MISSING' });
  });

  it('PAYLOAD_MISMATCH for a correctly signed payload of another version or another slug', async () => {
    const otherVersion = signedRelease(demoPayload({ version: '0.9.0' }));
    const otherSlug = signedRelease(demoPayload({ slug: 'demo-evil' }));
    await expect(verifyDemo({ release: otherVersion })).resolves.toMatchObject({ ok: false, code: 'PAYLOAD_MISMATCH' });
    await expect(verifyDemo({ release: otherSlug })).resolves.toMatchObject({ ok: false, code: 'PAYLOAD_MISMATCH' });
    // The same releases verify when they are what was asked for: the refusal is about the mix-up.
    await expect(verifyDemo({ release: otherVersion, expected: { slug: 'demo', version: '0.9.0' } })).resolves.toMatchObject({ ok: true });
  });

  it.each<[string, string]>([
    ['whitespace', '{ "slug": "demo" }'],
    ['unsorted keys', JSON.stringify({ version: '1.0.0', slug: 'demo', manifest_sha256: 'x', assets: [] })],
    ['a duplicated key', '{"assets":[],"manifest_sha256":"x","slug":"demo","slug":"demo","version":"1.0.0"}'],
    ['a non-JSON payload', 'demo@1.0.0'],
  ])('MALFORMED_JWS for a validly signed payload with %s', async (_label, payloadText) => {
    const jws = signCompact({ alg: 'EdDSA', kid: keyA.jwk.kid }, new TextEncoder().encode(payloadText), keyA.privateKey);
    await expect(verifyDemo({ release: releaseWithJws(jws) })).resolves.toMatchObject({ ok: false, code: 'MALFORMED_JWS' });
  });

  it.each<[string, unknown]>([
    ['no assets array', { slug: 'demo', version: '1.0.0', manifest_sha256: 'x' }],
    ['an uppercase hash', { ...demoPayload(), assets: [{ ...integrityAsset('a', ASSET_BYTES), sha256: 'A'.repeat(64) }] }],
    ['a fractional size', { ...demoPayload(), assets: [{ ...integrityAsset('a', ASSET_BYTES), size: 1.5 }] }],
    ['a duplicated asset name', { ...demoPayload(), assets: [integrityAsset('a', ASSET_BYTES), integrityAsset('a', OTHER_ASSET_BYTES)] }],
  ])('MALFORMED_JWS for a validly signed canonical payload with %s', async (_label, payload) => {
    const jws = signCompact({ alg: 'EdDSA', kid: keyA.jwk.kid }, canonicalJsonBytes(payload), keyA.privateKey);
    await expect(verifyDemo({ release: releaseWithJws(jws) })).resolves.toMatchObject({ ok: false, code: 'MALFORMED_JWS' });
  });

  it('has a consumer-facing meaning for every error code', () => {
    expect(VERIFICATION_ERROR_CODES).toHaveLength(9);
    for (const code of VERIFICATION_ERROR_CODES) expect(VERIFICATION_ERRORS[code].meaning.length).toBeGreaterThan(10);
    expect(VERIFICATION_ERRORS.KID_UNKNOWN.meaning).toBe('Release predates both current keys.');
  });

  it('the README table states the same meaning for every code', () => {
    const readme = readFileSync(join(__dirname, 'README.md'), 'utf8');
    for (const code of VERIFICATION_ERROR_CODES) {
      expect(readme).toContain(`| \`${code}\` |`);
      expect(readme).toContain(`| ${VERIFICATION_ERRORS[code].meaning} |`);
    }
  });
});

function* chunks(bytes: Uint8Array, size: number): Generator<Uint8Array> {
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
}
