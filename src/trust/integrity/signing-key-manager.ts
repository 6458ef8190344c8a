import type { KeyObject } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { exportPrivateKeyPkcs8, importPrivateKeyPkcs8, publicJwkFromKeyObject, type PublicJwk } from '../../lib/integrity';
import type { SigningKeyEntity } from './entities/signing-key.entity';
import { type KeyEncryption, SigningKeyDecryptionError } from './key-encryption';
import type { ReleaseSignaturesRepository } from './release-signatures.repository';
import type { SigningKeyGenerator } from './signing-key-generator';
import type { NewSigningKeyRow, SigningKeyRepository } from './signing-key.repository';
import type { EnsuredKey, KeyRotation, SigningKeyInfo } from './signing-key.types';
import { keySetEntry } from '../transparency-log/log-entries';
import type { TransparencyLog } from '../transparency-log/transparency-log';

/** Writes the rotation's audit entry inside the rotation's transaction. */
export type RotationAudit = (manager: EntityManager, rotation: KeyRotation) => Promise<void>;

/** The `key.rotate` audit entry's details, the same from the admin route and the CLI. */
export function rotationAuditDetails(rotation: KeyRotation): Record<string, unknown> {
  return {
    newKid: rotation.kid,
    previousKid: rotation.previousKid,
    drainingKid: rotation.drainingKid,
    retiredKids: rotation.retiredKids,
    pending: rotation.pending,
    stillDraining: rotation.stillDraining,
  };
}

export interface SigningKey {
  kid: string;
  privateKey: KeyObject;
}

export function publicJwkOf(row: Pick<SigningKeyEntity, 'kid' | 'publicX'>): PublicJwk {
  return { kid: row.kid, kty: 'OKP', crv: 'Ed25519', x: row.publicX, alg: 'EdDSA', use: 'sig' };
}

function toInfo(row: SigningKeyEntity, counts: { pending: Map<string, number>; failed: Map<string, number> }): SigningKeyInfo {
  return {
    kid: row.kid,
    state: row.state,
    publicJwk: publicJwkOf(row),
    createdAt: row.createdAt,
    demotedAt: row.demotedAt,
    drainingAt: row.drainingAt,
    drainedAt: row.drainedAt,
    retiredAt: row.retiredAt,
    pending: counts.pending.get(row.kid) ?? 0,
    failed: counts.failed.get(row.kid) ?? 0,
    resigned: row.resignedCount,
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
    private readonly signatures: ReleaseSignaturesRepository,
    private readonly encryption: KeyEncryption,
    private readonly generator: SigningKeyGenerator,
    /** Where key-set changes (and, through ReleaseResigner, re-signings) are logged. */
    readonly log: TransparencyLog,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Appends the key set as it now stands to the transparency log: the last write of a transaction
   * that changed it (the log's lock is held to commit).
   */
  async logKeySet(manager: EntityManager): Promise<number> {
    return this.log.append(keySetEntry(await this.publishedKeys(manager)), manager);
  }

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
      const created = won && current.kid === row.kid;
      if (created) await this.logKeySet(em);
      return { kid: current.kid, created };
    };
    return manager ? work(manager) : this.repository.transaction(work);
  }

  /**
   * One transaction: a new key becomes current, the current key becomes previous, and the previous
   * key starts draining: it stays in the key set while the releases it signed are re-signed with
   * the new key, and retires once none is left and its grace period has passed (a previous key
   * that signed nothing retires at once). A rotation never waits for an earlier drain: keys
   * already draining keep draining beside the new one (an emergency rotation, a compromised key,
   * cannot be held up), so the key set holds current, previous and every displaced key that still
   * has releases to re-sign. `audit` records the rotation in the same transaction. Concurrent
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
      const alreadyDraining = published.filter((key) => key.state === 'draining');
      const at = row.createdAt;
      const retiredKids: string[] = [];

      let pending = 0;
      if (previous) {
        pending = await this.signatures.pendingCount(previous.kid, em);
        if (pending > 0) await this.repository.startDraining(em, previous.kid, at);
        else {
          await this.repository.retire(em, previous.kid, 'previous', at);
          retiredKids.push(previous.kid);
        }
      }
      if (current) await this.repository.demote(em, current.kid, at);
      await this.repository.insertCurrent(em, row);
      const stillPending = await this.signatures.pendingCounts(
        alreadyDraining.map((key) => key.kid),
        em,
      );
      const rotation: KeyRotation = {
        kid: row.kid,
        previousKid: current?.kid ?? null,
        drainingKid: previous && pending > 0 ? previous.kid : null,
        retiredKids,
        pending,
        stillDraining: alreadyDraining.map((key) => ({ kid: key.kid, pending: stillPending.get(key.kid) ?? 0 })),
      };
      if (audit) await audit(em, rotation);
      await this.logKeySet(em);
      return rotation;
    });
  }

  /** Every key: current, previous, draining, then retired keys newest first, with re-signing counts. */
  async list(manager?: EntityManager): Promise<SigningKeyInfo[]> {
    const rows = await this.repository.findAll(manager);
    const resignable = rows.filter((row) => row.state === 'draining' || row.state === 'retired').map((row) => row.kid);
    const counts = {
      pending: await this.signatures.pendingCounts(resignable, manager),
      failed: await this.signatures.failureCounts(resignable, manager),
    };
    return rows.map((row) => toInfo(row, counts));
  }

  /** The published public keys: current first, then previous, then draining keys newest first. Never private members. */
  async publishedKeys(manager?: EntityManager): Promise<PublicJwk[]> {
    return (await this.repository.findPublished(manager)).map(publicJwkOf);
  }

  /**
   * The current key, read from the database and decrypted for this one signing, so a signature is
   * always made with a key that is current (or, if a rotation commits meanwhile, previous): both
   * are in the key set. Creates the first key if none exists yet, unless `create` is false.
   */
  async signingKey(manager?: EntityManager, options: { create?: boolean } = {}): Promise<SigningKey> {
    let row = await this.repository.findCurrentWithPrivateKey(manager);
    if (!row && options.create !== false) {
      await this.ensureCurrentKey(manager);
      row = await this.repository.findCurrentWithPrivateKey(manager);
    }
    if (!row) throw new Error('no current signing key');
    if (!row.sealed) throw new SigningKeyDecryptionError(row.kid, 'the stored private key is missing');
    const der = this.encryption.open(row.sealed, row.kid);
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
