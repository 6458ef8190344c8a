import { In, type DataSource, type EntityManager, type Repository } from 'typeorm';
import type { SealedPrivateKey } from './key-encryption';
import { SigningKeyEntity } from './entities/signing-key.entity';
import type { SigningKeyState } from './signing-key.types';

/** Transaction-scoped advisory lock that serializes changes to the key set across instances. */
export const SIGNING_KEY_LOCK = 7_244_151_002;

export interface NewSigningKeyRow {
  kid: string;
  publicX: string;
  sealed: SealedPrivateKey;
  createdAt: Date;
}

const STATE_ORDER: Record<SigningKeyState, number> = { current: 0, previous: 1, retired: 2 };

/** Current first, then previous, then retired keys newest first. */
function byState(left: SigningKeyEntity, right: SigningKeyEntity): number {
  return STATE_ORDER[left.state] - STATE_ORDER[right.state] || right.createdAt.getTime() - left.createdAt.getTime();
}

/**
 * Data access for signing keys. A plain class over a DataSource (no Nest), so the operator CLI
 * uses exactly the code the server does without booting the framework. Every method that takes a
 * manager runs in that manager's transaction.
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

  findCurrent(manager?: EntityManager): Promise<SigningKeyEntity | null> {
    return this.keys(manager).findOne({ where: { state: 'current' } });
  }

  findByKid(kid: string, manager?: EntityManager): Promise<SigningKeyEntity | null> {
    return this.keys(manager).findOne({ where: { kid } });
  }

  /** The keys of the key set: current first, then previous. */
  async findPublished(manager?: EntityManager): Promise<SigningKeyEntity[]> {
    const rows = await this.keys(manager).find({ where: { state: In(['current', 'previous']) } });
    return rows.sort(byState);
  }

  /** Current and previous, row-locked for a rotation (the advisory lock is taken first). */
  async findPublishedForUpdate(manager: EntityManager): Promise<SigningKeyEntity[]> {
    const rows = await this.keys(manager).find({
      where: { state: In(['current', 'previous']) },
      lock: { mode: 'pessimistic_write' },
    });
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

  /** Retires the key and wipes its encrypted private key: a retired key never signs again. */
  async retire(manager: EntityManager, kid: string, at: Date): Promise<void> {
    await this.keys(manager).update(
      { kid, state: 'previous' },
      { state: 'retired', retiredAt: at, privateKeyCiphertext: null, privateKeyIv: null, privateKeyTag: null },
    );
  }
}
