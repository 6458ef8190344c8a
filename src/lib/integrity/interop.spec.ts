/**
 * Cross-checks against an independent Ed25519/JWS implementation: the openssl command line.
 * Our JWS must verify in openssl, and a JWS whose signature openssl made must verify in ours.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { base64urlEncode } from './base64url';
import { canonicalJsonBytes } from './canonical-json';
import { exportPrivateKeyPkcs8 } from './keys';
import { signPayload } from './jws';
import { demoPayload, keyA, keyB, PINNED_RELEASE_JWS, releaseWithJws, type TestKey } from './testdata/signing-fixtures';
import type { PublicJwk } from './types';
import { verifyRelease } from './verify';

const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

let workDir: string;
beforeAll(() => {
  workDir = mkdtempSync(join(tmpdir(), 'integrity-interop-'));
});
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function pem(label: string, der: Buffer): string {
  const body = der.toString('base64').replace(/.{1,64}/g, '$&\n');
  return `-----BEGIN ${label}-----\n${body}-----END ${label}-----\n`;
}

/** Rebuilds the SubjectPublicKeyInfo by hand from x, so node's JWK import is not what is tested. */
function writePublicKeyPem(jwk: PublicJwk, name: string): string {
  const path = join(workDir, name);
  writeFileSync(path, pem('PUBLIC KEY', Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(jwk.x, 'base64url')])));
  return path;
}

function openssl(args: string[]): { status: number | null; output: string } {
  const result = spawnSync('openssl', args, { cwd: workDir, encoding: 'utf8' });
  if (result.error) throw result.error;
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

function opensslVerify(jws: string, jwk: PublicJwk, label: string): { status: number | null; output: string } {
  const [header, payload, signature] = jws.split('.') as [string, string, string];
  const publicKey = writePublicKeyPem(jwk, `${label}.pub.pem`);
  writeFileSync(join(workDir, `${label}.input.txt`), `${header}.${payload}`);
  writeFileSync(join(workDir, `${label}.sig.bin`), Buffer.from(signature, 'base64url'));
  return openssl([
    'pkeyutl',
    '-verify',
    '-pubin',
    '-inkey',
    publicKey,
    '-rawin',
    '-in',
    `${label}.input.txt`,
    '-sigfile',
    `${label}.sig.bin`,
  ]);
}

describe('interop with openssl pkeyutl (Ed25519)', () => {
  it('openssl verifies the pinned release JWS', () => {
    const result = opensslVerify(PINNED_RELEASE_JWS, keyA.jwk, 'pinned');
    expect(result.output).toContain('Signature Verified Successfully');
    expect(result.status).toBe(0);
  });

  it('openssl verifies a freshly signed release, and rejects it once one payload byte changes', () => {
    const jws = signPayload(demoPayload(), keyB.privateKey, keyB.jwk.kid);
    const good = opensslVerify(jws, keyB.jwk, 'fresh');
    expect(good.output).toContain('Signature Verified Successfully');
    expect(good.status).toBe(0);

    const [header, payload, signature] = jws.split('.') as [string, string, string];
    const tamperedPayload = Buffer.from(payload, 'base64url');
    tamperedPayload[tamperedPayload.length - 3] ^= 0x01;
    const tampered = opensslVerify(`${header}.${base64urlEncode(tamperedPayload)}.${signature}`, keyB.jwk, 'tampered');
    expect(tampered.status).not.toBe(0);
    expect(tampered.output).toContain('Signature Verification Failure');
  });

  it('openssl rejects the signature under another key', () => {
    const result = opensslVerify(PINNED_RELEASE_JWS, keyB.jwk, 'wrong-key');
    expect(result.status).not.toBe(0);
    expect(result.output).not.toContain('Signature Verified Successfully');
  });

  it('a JWS whose signature openssl produced verifies with verifyRelease', async () => {
    const signer: TestKey = keyB;
    const privatePem = join(workDir, 'signer.pem');
    writeFileSync(privatePem, pem('PRIVATE KEY', Buffer.from(exportPrivateKeyPkcs8(signer.privateKey))));
    const header = base64urlEncode(`{"alg":"EdDSA","kid":"${signer.jwk.kid}"}`);
    const payload = base64urlEncode(canonicalJsonBytes(demoPayload()));
    writeFileSync(join(workDir, 'to-sign.txt'), `${header}.${payload}`);
    const signed = openssl(['pkeyutl', '-sign', '-inkey', privatePem, '-rawin', '-in', 'to-sign.txt', '-out', 'openssl.sig']);
    expect(signed.status).toBe(0);
    const signature = base64urlEncode(readFileSync(join(workDir, 'openssl.sig')));

    const result = await verifyRelease({
      release: releaseWithJws(`${header}.${payload}.${signature}`),
      keys: { keys: [signer.jwk] },
      expected: { slug: 'demo', version: '1.0.0' },
    });
    expect(result).toMatchObject({ ok: true, kid: signer.jwk.kid });
  });
});
