import { In, type DataSource, type EntityManager, type Repository } from 'typeorm';
import type { SealedPrivateKey } from './key-encryption';
import { SigningKeyEntity } from './entities/signing-key.entity';
import type { SigningKeyState } from './signing-key.types';

/**
 * Transaction-scoped advisory lock over the key set. Changes to the key set (first key, rotation,
 * retirement) take it exclusively; re-signing batches take it shared, so the current key cannot
 * change under a batch and several batches still run side by side.
 */
export const SIGNING_KEY_LOCK = 7_244_151_002;

export interface NewSigningKeyRow {
  kid: string;
  publicX: string;
  sealed: SealedPrivateKey;
  createdAt: Date;
}

/** A key row with its sealed private key: only the code that signs reads one. */
export type SigningKeyWithPrivateKey = SigningKeyEntity & { sealed: SealedPrivateKey | null };

const STATE_ORDER: Record<SigningKeyState, number> = { current: 0, previous: 1, draining: 2, retired: 3 };

/** The key-set states, in the order the key set lists them. */
export const PUBLISHED_STATES: readonly SigningKeyState[] = ['current', 'previous', 'draining'];

/** Current, previous, draining, then retired keys newest first. */
function byState(left: SigningKeyEntity, right: SigningKeyEntity): number {
  return STATE_ORDER[left.state] - STATE_ORDER[right.state] || right.createdAt.getTime() - left.createdAt.getTime();
}

/**
 * Data access for signing keys. A plain class over a DataSource (no Nest), so the operator CLI
 * uses exactly the code the server does without booting the framework. Every method that takes a
 * manager runs in that manager's transaction. The encrypted private key is never selected by
 * default: `findCurrentWithPrivateKey` is the one reader.
 */
export class SigningKeyRepository {
  constructor(private readonly dataSource: DataSource) {}

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  private keys(manager?: EntityManager): Repository<SigningKeyEntity> {
    return (manager ?? this.dataSource.manager).getRepository(SigningKeyEntity);
  }

  /** Held until the transaction ends; a second holder waits, then reads what the first committed. */
  async lockKeySet(manager: EntityManager): Promise<void> {
    await manager.query('SELECT pg_advisory_xact_lock($1)', [SIGNING_KEY_LOCK]);
  }

  /** Shared with other re-signing batches, exclusive of rotations. */
  async lockKeySetShared(manager: EntityManager): Promise<void> {
    await manager.query('SELECT pg_advisory_xact_lock_shared($1)', [SIGNING_KEY_LOCK]);
  }

  findCurrent(manager?: EntityManager): Promise<SigningKeyEntity | null> {
    return this.keys(manager).findOne({ where: { state: 'current' } });
  }

  /** The current key and its sealed private key, read for one signing. */
  async findCurrentWithPrivateKey(manager?: EntityManager): Promise<SigningKeyWithPrivateKey | null> {
    const row = await this.keys(manager)
      .createQueryBuilder('key')
      .addSelect(['key.privateKeyCiphertext', 'key.privateKeyIv', 'key.privateKeyTag'])
      .where('key.state = :state', { state: 'current' })
      .getOne();
    if (!row) return null;
    const { privateKeyCiphertext: ciphertext, privateKeyIv: iv, privateKeyTag: tag } = row;
    return Object.assign(row, { sealed: ciphertext && iv && tag ? { ciphertext, iv, tag } : null });
  }

  findByKid(kid: string, manager?: EntityManager): Promise<SigningKeyEntity | null> {
    return this.keys(manager).findOne({ where: { kid } });
  }

  /** The keys of the key set: current first, then previous, then draining keys newest first. */
  async findPublished(manager?: EntityManager): Promise<SigningKeyEntity[]> {
    const rows = await this.keys(manager).find({ where: { state: In([...PUBLISHED_STATES]) } });
    return rows.sort(byState);
  }

  /** The key-set rows, row-locked for a rotation or a retirement (the advisory lock is taken first). */
  async findPublishedForUpdate(manager: EntityManager): Promise<SigningKeyEntity[]> {
    const rows = await this.keys(manager).find({
      where: { state: In([...PUBLISHED_STATES]) },
      lock: { mode: 'pessimistic_write' },
    });
    return rows.sort(byState);
  }

  /** Keys whose releases are to be re-signed: draining keys, and retired keys (late or stranded releases). */
  async findResignSources(manager?: EntityManager): Promise<SigningKeyEntity[]> {
    const rows = await this.keys(manager).find({ where: { state: In(['draining', 'retired']) } });
    return rows.sort(byState);
  }

  async findAll(manager?: EntityManager): Promise<SigningKeyEntity[]> {
    const rows = await this.keys(manager).find({ order: { createdAt: 'DESC' } });
    return rows.sort(byState);
  }

  /**
   * Inserts the key as current unless a current key exists; the partial unique index is the
   * arbiter, so two instances racing here end with exactly one current key. Returns whether this
   * insert won.
   */
  async insertCurrentIfAbsent(manager: EntityManager, row: NewSigningKeyRow): Promise<boolean> {
    const inserted: unknown[] = await manager.query(
      `INSERT INTO "signing_key" ("kid", "state", "public_x", "private_key_ciphertext", "private_key_iv", "private_key_tag", "created_at")
       VALUES ($1, 'current', $2, $3, $4, $5, $6)
       ON CONFLICT ("state") WHERE "state" = 'current' DO NOTHING
       RETURNING "kid"`,
      [row.kid, row.publicX, row.sealed.ciphertext, row.sealed.iv, row.sealed.tag, row.createdAt],
    );
    return inserted.length === 1;
  }

  /** Inserts the key as current; fails on the unique index if another current key exists. */
  async insertCurrent(manager: EntityManager, row: NewSigningKeyRow): Promise<void> {
    await this.keys(manager).insert({
      kid: row.kid,
      state: 'current',
      publicX: row.publicX,
      privateKeyCiphertext: row.sealed.ciphertext,
      privateKeyIv: row.sealed.iv,
      privateKeyTag: row.sealed.tag,
      createdAt: row.createdAt,
      demotedAt: null,
      retiredAt: null,
    });
  }

  async demote(manager: EntityManager, kid: string, at: Date): Promise<void> {
    await this.keys(manager).update({ kid, state: 'current' }, { state: 'previous', demotedAt: at });
  }

  /** The previous key leaves `previous` but stays in the key set until its releases are re-signed. */
  async startDraining(manager: EntityManager, kid: string, at: Date): Promise<void> {
    await this.keys(manager).update({ kid, state: 'previous' }, { state: 'draining', drainingAt: at, drainedAt: null });
  }

  /**
   * Retires the key (it leaves the key set) and wipes its encrypted private key: a retired key
   * never signs again. Its row and public key stay: a late release it signed can still be verified
   * and re-signed.
   */
  async retire(manager: EntityManager, kid: string, from: 'previous' | 'draining', at: Date): Promise<boolean> {
    const result = await this.keys(manager).update(
      { kid, state: from },
      { state: 'retired', retiredAt: at, privateKeyCiphertext: null, privateKeyIv: null, privateKeyTag: null },
    );
    return (result.affected ?? 0) === 1;
  }

  /**
   * Counts releases re-signed away from the key in this batch. Any re-signing of a draining key
   * restarts its grace period, which begins only once nothing is left.
   */
  async addResigned(manager: EntityManager, kid: string, count: number): Promise<void> {
    await manager.query(
      `UPDATE "signing_key" SET "resigned_count" = "resigned_count" + $2,
              "drained_at" = CASE WHEN "state" = 'draining' THEN NULL ELSE "drained_at" END
        WHERE "kid" = $1`,
      [kid, count],
    );
  }

  /** Records when a draining key had nothing left to re-sign. */
  async markDrained(manager: EntityManager, kid: string, at: Date): Promise<void> {
    await this.keys(manager).update({ kid, state: 'draining' }, { drainedAt: at });
  }
}
