import { Inject, Injectable } from '@nestjs/common';
import { SigningKeyDecryptionError } from './key-encryption';
import { Clock } from '../../common/clock';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { MirroredKeysRepository } from './mirrored-keys.repository';
import type { EntityManager } from 'typeorm';
import { sign } from 'node:crypto';
import { signFreshnessStatement, type FreshnessStatement } from '../../lib/freshness';
import { base64urlDecode, publicJwkFromKeyObject, signPayload, type KeySet } from '../../lib/integrity';
import { signedPayloadOf } from './signed-release';
import { type SigningKey, SigningKeyManager } from './signing-key-manager';
import type { ReleaseSignature, SignReleaseInput } from './signing-key.types';

/**
 * How long freshness statements reuse the current key once read: releases read it for every
 * signing, but a `latest` answer signs a statement, and reading and decrypting the key each time
 * cost more than the rest of the answer. After a rotation an instance signs with
 * the previous key for at most this long; the key set still publishes it, so those verify.
 */
export const FRESHNESS_KEY_REUSE_MS = 5_000;

/** Release signing and the published key set; what the Publish module and the key-set route use. */
@Injectable()
export class IntegrityService {
  constructor(
    private readonly keys: SigningKeyManager,
    private readonly mirrored: MirroredKeysRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  private freshnessKey: { key: Promise<SigningKey>; readAtMs: number } | null = null;

  /**
   * Signs a release: JWS compact, protected header exactly `{"alg":"EdDSA","kid":…}`, payload the
   * RFC 8785 bytes of `{slug, version, manifest_sha256, assets}`. The current key is read from the
   * database for every signing. Pass the ingest's `manager` to sign inside its transaction.
   */
  async signRelease(input: SignReleaseInput, manager?: EntityManager): Promise<ReleaseSignature> {
    const payload = signedPayloadOf(input);
    const { kid, privateKey } = await this.keys.signingKey(manager);
    return { jws: signPayload(payload, privateKey, kid), kid };
  }

  /**
   * The current key as the signer of `latest` answers' freshness statements, as releases are
   * signed (header `{"alg":"EdDSA","kid":…,"typ":"registry-freshness+jws"}`), so clients verify
   * them with the key set they already fetch. Its kid comes with it: a statement signed once may be
   * served again while the same key signs.
   */
  async freshnessSigner(): Promise<{ kid: string; sign(statement: FreshnessStatement): string }> {
    const { kid, privateKey } = await this.currentKeyForFreshness();
    return { kid, sign: (statement) => signFreshnessStatement(statement, privateKey, kid) };
  }

  /**
   * The current key, read again once FRESHNESS_KEY_REUSE_MS has passed. A key that does not open
   * is kept as such for as long (it will not open before a restart with another
   * KEY_ENCRYPTION_KEY, and reading it for every `latest` answer cost a query each); any other
   * failed read (the database) is not kept.
   */
  private currentKeyForFreshness(): Promise<SigningKey> {
    const now = this.clock.nowMs();
    const held = this.freshnessKey;
    if (held && now >= held.readAtMs && now - held.readAtMs < FRESHNESS_KEY_REUSE_MS) return held.key;
    const key = this.keys.signingKey();
    const entry = { key, readAtMs: now };
    this.freshnessKey = entry;
    key.catch((error: unknown) => {
      if (this.freshnessKey === entry && !(error instanceof SigningKeyDecryptionError)) this.freshnessKey = null;
    });
    return key;
  }

  /**
   * The current key as a signer of other statements than releases (the transparency log's signed
   * heads): its kid, its raw 32-byte Ed25519 public key (the `x` of its JWK in the key set) and a
   * function that signs with it. Read from the database like a release signing; the private key
   * stays in the closure.
   */
  async currentSigner(): Promise<{ kid: string; publicKey: Uint8Array; sign(message: Uint8Array): Uint8Array }> {
    const { kid, privateKey } = await this.keys.signingKey();
    const publicKey = base64urlDecode(publicJwkFromKeyObject(privateKey).x);
    if (!publicKey) throw new Error(`signing key ${kid}: its public key does not encode`);
    return { kid, publicKey, sign: (message) => new Uint8Array(sign(null, message, privateKey)) };
  }

  /**
   * The key set clients verify against: the current key, the previous one, and any key being
   * drained; on a mirror (MIRROR_OF), upstream's key set as last copied, since it signs nothing.
   */
  async keySet(): Promise<KeySet> {
    if (this.config.mirrorOf) return { keys: await this.mirrored.list() };
    return { keys: await this.keys.publishedKeys() };
  }
}
