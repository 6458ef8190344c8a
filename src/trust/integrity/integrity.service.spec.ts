import { SystemClock } from '../../common/clock';
import { verify } from 'node:crypto';
import { parseCompactJws, publicKeyFromJwk } from '../../lib/integrity';
import { keyA, PINNED_PAYLOAD, PINNED_RELEASE_JWS } from '../../lib/integrity/testdata/signing-fixtures';
import { IntegrityService } from './integrity.service';
import type { MirroredKeysRepository } from './mirrored-keys.repository';
import type { SigningKeyManager } from './signing-key-manager';
import type { AppConfig } from '../../config/config.types';

/** The service over a stand-in key manager whose current key is the RFC 8037 key (A). */
function serviceSigningWithKeyA(): { service: IntegrityService; signingKey: jest.Mock } {
  const signingKey = jest.fn(async () => ({ kid: keyA.jwk.kid, privateKey: keyA.privateKey }));
  const publishedKeys = jest.fn(async () => [keyA.jwk]);
  const manager = { signingKey, publishedKeys } as unknown as SigningKeyManager;
  return {
    service: new IntegrityService(manager, {} as MirroredKeysRepository, { mirrorOf: null } as AppConfig, new SystemClock()),
    signingKey,
  };
}

describe('IntegrityService.signRelease', () => {
  it('yields the pinned JWS for the fixed key and payload (known answer)', async () => {
    const { service } = serviceSigningWithKeyA();
    await expect(service.signRelease(PINNED_PAYLOAD)).resolves.toEqual({ jws: PINNED_RELEASE_JWS, kid: keyA.jwk.kid });
  });

  it('writes the protected header exactly {alg: EdDSA, kid} and a verifiable Ed25519 signature', async () => {
    const { service } = serviceSigningWithKeyA();
    const { jws } = await service.signRelease(PINNED_PAYLOAD);
    const parsed = parseCompactJws(jws);
    expect(parsed.header).toEqual({ alg: 'EdDSA', kid: keyA.jwk.kid });
    expect(Object.keys(parsed.header)).toEqual(['alg', 'kid']);
    expect(verify(null, parsed.signingInput, publicKeyFromJwk(keyA.jwk), parsed.signature)).toBe(true);
  });

  it('signs only the spec members of each asset, with attestation null when absent', async () => {
    const { service } = serviceSigningWithKeyA();
    const [asset] = PINNED_PAYLOAD.assets;
    const { attestation: _dropped, ...withoutAttestation } = asset!;
    const noisy = {
      ...PINNED_PAYLOAD,
      extra: 'not signed',
      assets: [{ ...withoutAttestation, url: 'https://example.test/x', hashed: true }],
    };
    const { jws } = await service.signRelease(noisy);
    expect(jws).toBe(PINNED_RELEASE_JWS);
  });

  it('reads the key for every signing (never a cached key)', async () => {
    const { service, signingKey } = serviceSigningWithKeyA();
    await service.signRelease(PINNED_PAYLOAD);
    await service.signRelease(PINNED_PAYLOAD);
    expect(signingKey).toHaveBeenCalledTimes(2);
  });

  it('passes the caller transaction through to the key lookup', async () => {
    const { service, signingKey } = serviceSigningWithKeyA();
    const manager = { marker: true } as never;
    await service.signRelease(PINNED_PAYLOAD, manager);
    expect(signingKey).toHaveBeenCalledWith(manager);
  });

  it('refuses to sign what a verifier would reject as malformed', async () => {
    const { service, signingKey } = serviceSigningWithKeyA();
    const [asset] = PINNED_PAYLOAD.assets;
    await expect(service.signRelease({ ...PINNED_PAYLOAD, manifest_sha256: 'abc' })).rejects.toThrow(/manifest_sha256/);
    await expect(service.signRelease({ ...PINNED_PAYLOAD, assets: [{ ...asset!, sha256: 'ABC' }] })).rejects.toThrow(/sha256/);
    await expect(service.signRelease({ ...PINNED_PAYLOAD, assets: [asset!, asset!] })).rejects.toThrow(/twice/);
    await expect(service.signRelease({ ...PINNED_PAYLOAD, assets: [{ ...asset!, size: 2 ** 60 }] })).rejects.toThrow(/cannot sign/);
    expect(signingKey).not.toHaveBeenCalled();
  });

  it('serves the manager’s published keys as the key set', async () => {
    const { service } = serviceSigningWithKeyA();
    await expect(service.keySet()).resolves.toEqual({ keys: [keyA.jwk] });
  });
});
