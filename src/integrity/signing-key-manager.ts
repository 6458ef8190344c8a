import type { KeyObject } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { exportPrivateKeyPkcs8, importPrivateKeyPkcs8, publicJwkFromKeyObject, type PublicJwk } from '../lib/integrity';
import type { SigningKeyEntity } from './entities/signing-key.entity';
import { type KeyEncryption, SigningKeyDecryptionError } from './key-encryption';
import type { SigningKeyGenerator } from './signing-key-generator';
import type { NewSigningKeyRow, SigningKeyRepository } from './signing-key.repository';
import type { EnsuredKey, KeyRotation, SigningKeyInfo } from './signing-key.types';

/** Writes the rotation's audit entry inside the rotation's transaction. */
export type RotationAudit = (manager: EntityManager, rotation: KeyRotation) => Promise<void>;

/** The `key.rotate` audit entry's details, the same from the admin route and the CLI. */
export function rotationAuditDetails(rotation: KeyRotation): Record<string, unknown> {
  return { newKid: rotation.kid, previousKid: rotation.previousKid, retiredKid: rotation.retiredKid };
}

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
}

function publicJwk(row: Pick<SigningKeyEntity, 'kid' | 'publicX'>): PublicJwk {
  return { kid: row.kid, kty: 'OKP', crv: 'Ed25519', x: row.publicX, alg: 'EdDSA', use: 'sig' };
}

function toInfo(row: SigningKeyEntity): SigningKeyInfo {
  return {
    kid: row.kid,
    state: row.state,
    publicJwk: publicJwk(row),
    createdAt: row.createdAt,
    demotedAt: row.demotedAt,
    retiredAt: row.retiredAt,
  };
}

/**
 * The signing-key life cycle: first key, rotation, listing, the key set and the key to sign with.
 * Framework-free (TypeORM and node:crypto only): the Nest services delegate here, and the
 * operator CLI builds one directly over its own DataSource.
 *
 * Every answer comes from the database, never from process memory, so several server instances
 * and the CLI always agree on the current key.
 */
export class SigningKeyManager {
  constructor(
    private readonly repository: SigningKeyRepository,
    private readonly encryption: KeyEncryption,
    private readonly generator: SigningKeyGenerator,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Makes sure a current key exists, creating the first one if not. Race-safe: under a
   * transaction-scoped advisory lock the table is re-read, and the insert itself is
   * `ON CONFLICT DO NOTHING` against the "one current key" partial unique index; whoever loses
   * re-reads the winner's key. With `manager`, runs inside the caller's transaction.
   */
  async ensureCurrentKey(manager?: EntityManager): Promise<EnsuredKey> {
    const existing = await this.repository.findCurrent(manager);
    if (existing) return { kid: existing.kid, created: false };
    const work = async (em: EntityManager): Promise<EnsuredKey> => {
      await this.repository.lockKeySet(em);
      const committed = await this.repository.findCurrent(em);
      if (committed) return { kid: committed.kid, created: false };
      const row = this.newKey();
      const won = await this.repository.insertCurrentIfAbsent(em, row);
      const current = await this.repository.findCurrent(em);
      if (!current) throw new Error('no current signing key after creating one');
      return { kid: current.kid, created: won && current.kid === row.kid };
    };
    return manager ? work(manager) : this.repository.transaction(work);
  }

  /**
   * One transaction: a new key becomes current, the current key becomes previous, the previous
   * key retires (leaving the key set, its private key wiped), and `audit` records it. Concurrent
   * rotations queue on the advisory lock; the partial unique indexes are the backstop.
   */
  async rotate(audit?: RotationAudit): Promise<KeyRotation> {
    const row = this.newKey();
    return this.repository.transaction(async (em) => {
      await this.repository.lockKeySet(em);
      if (await this.repository.findByKid(row.kid, em)) throw new Error(`the new signing key ${row.kid} already exists`);
      const published = await this.repository.findPublishedForUpdate(em);
      const current = published.find((key) => key.state === 'current') ?? null;
      const previous = published.find((key) => key.state === 'previous') ?? null;
      const at = row.createdAt;
      if (previous) await this.repository.retire(em, previous.kid, at);
      if (current) await this.repository.demote(em, current.kid, at);
      await this.repository.insertCurrent(em, row);
      const rotation: KeyRotation = { kid: row.kid, previousKid: current?.kid ?? null, retiredKid: previous?.kid ?? null };
      if (audit) await audit(em, rotation);
      return rotation;
    });
  }

  /** Every key: current, previous, then retired keys newest first. */
  async list(manager?: EntityManager): Promise<SigningKeyInfo[]> {
    return (await this.repository.findAll(manager)).map(toInfo);
  }

  /** The published public keys: current first, then previous. Never private members. */
  async publishedKeys(manager?: EntityManager): Promise<PublicJwk[]> {
    return (await this.repository.findPublished(manager)).map(publicJwk);
  }

  /**
   * The current key, read from the database and decrypted for this one signing, so a signature is
   * always made with a key that is current (or, if a rotation commits meanwhile, previous): both
   * are in the key set. Creates the first key if none exists yet.
   */
  async signingKey(manager?: EntityManager): Promise<SigningKey> {
    let row = await this.repository.findCurrent(manager);
    if (!row) {
      await this.ensureCurrentKey(manager);
      row = await this.repository.findCurrent(manager);
    }
    if (!row) throw new Error('no current signing key');
    if (!row.privateKeyCiphertext || !row.privateKeyIv || !row.privateKeyTag) {
      throw new SigningKeyDecryptionError(row.kid, 'the stored private key is missing');
    }
    const der = this.encryption.open({ ciphertext: row.privateKeyCiphertext, iv: row.privateKeyIv, tag: row.privateKeyTag }, row.kid);
    let privateKey: KeyObject;
    try {
      privateKey = importPrivateKeyPkcs8(der);
    } catch {
      throw new SigningKeyDecryptionError(row.kid, 'the decrypted bytes are not an Ed25519 PKCS#8 key');
    } finally {
      der.fill(0);
    }
    if (publicJwkFromKeyObject(privateKey).kid !== row.kid) {
      throw new SigningKeyDecryptionError(row.kid, 'the decrypted key does not match its kid');
    }
    return { kid: row.kid, privateKey };
  }

  /** A fresh key pair, its kid, and its private key sealed for storage; the plaintext is zeroed. */
  private newKey(): NewSigningKeyRow {
    const privateKey = this.generator.generate();
    const jwk = publicJwkFromKeyObject(privateKey);
    const der = exportPrivateKeyPkcs8(privateKey);
    try {
      return { kid: jwk.kid, publicX: jwk.x, sealed: this.encryption.seal(der, jwk.kid), createdAt: this.now() };
    } finally {
      der.fill(0);
    }
  }
}
