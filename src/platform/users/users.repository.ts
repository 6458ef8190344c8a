import type { DataSource, EntityManager } from 'typeorm';
import { UserEntity, type UserRole } from './entities/user.entity';

export const LOCAL_INSTANCE = 'local';
/** Serializes changes of roles and disabled states, so two admins cannot demote each other at once. */
const ACCESS_CHANGE_LOCK_KEY = 7_244_151_011;

export interface UserFilter {
  /** Part of the login or the email, case-insensitive. */
  search?: string;
  role?: UserRole;
}

export interface UserAccessChange {
  role?: UserRole;
  disabledAt?: Date | null;
}

export interface ProviderIdentity {
  instance: string;
  providerUserId: string;
  login: string;
  email: string | null;
  avatarUrl: string | null;
  providerTokenSealed: Buffer | null;
}

/**
 * Every query on users. A plain class over a DataSource so the operator CLI uses the same
 * queries without booting Nest; the module provides it through a factory.
 */
export class UsersRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(UserEntity);
  }

  findById(id: string, manager?: EntityManager): Promise<UserEntity | null> {
    return this.repo(manager).findOneBy({ id });
  }

  findByLogin(login: string, instance?: string): Promise<UserEntity[]> {
    return this.repo().find({ where: instance ? { login, instance } : { login }, order: { createdAt: 'ASC' } });
  }

  /**
   * Finds the user by (instance, provider id) or creates it, refreshing login, avatar, email and
   * the sealed provider token in the same statement: concurrent first sign-ins make one user.
   */
  async upsertFromProvider(identity: ProviderIdentity): Promise<UserEntity> {
    const rows: { id: string }[] = await this.dataSource.query(
      `INSERT INTO user_account (instance, provider_user_id, login, email, avatar_url, provider_token_sealed)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (instance, provider_user_id) WHERE provider_user_id IS NOT NULL
       DO UPDATE SET login = EXCLUDED.login,
                     avatar_url = EXCLUDED.avatar_url,
                     email = COALESCE(EXCLUDED.email, user_account.email),
                     provider_token_sealed = COALESCE(EXCLUDED.provider_token_sealed, user_account.provider_token_sealed),
                     updated_at = now()
       RETURNING id`,
      [identity.instance, identity.providerUserId, identity.login, identity.email, identity.avatarUrl, identity.providerTokenSealed],
    );
    return (await this.findById(rows[0].id))!;
  }

  async createLocal(input: { login: string; email: string | null; role: UserRole }, manager?: EntityManager): Promise<UserEntity> {
    const repo = this.repo(manager);
    return repo.save(
      repo.create({ instance: LOCAL_INSTANCE, providerUserId: null, login: input.login, email: input.email, role: input.role }),
    );
  }

  /** Whether any account belongs to this forge instance name (signed in through it). */
  async anyOfInstance(instance: string, manager?: EntityManager): Promise<boolean> {
    return this.repo(manager).exists({ where: { instance } });
  }

  async anyAdmin(manager?: EntityManager): Promise<boolean> {
    return this.repo(manager).exists({ where: { role: 'admin' } });
  }

  /** A page of users, oldest first, with the total the filter matches. */
  async page(filter: UserFilter, page: number, limit: number): Promise<{ users: UserEntity[]; total: number }> {
    const query = this.repo().createQueryBuilder('u');
    if (filter.search) {
      const pattern = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query.andWhere(`(u.login ILIKE :pattern ESCAPE '\\' OR u.email ILIKE :pattern ESCAPE '\\')`, { pattern });
    }
    if (filter.role) query.andWhere('u.role = :role', { role: filter.role });
    const [users, total] = await query
      .orderBy('u.created_at', 'ASC')
      .addOrderBy('u.id', 'ASC')
      .skip((page - 1) * limit)
      .take(limit)
      .getManyAndCount();
    return { users, total };
  }

  /** Runs `work` in a transaction that holds the lock every change of a role or a disabled state takes. */
  inAccessChangeTransaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1)', [ACCESS_CHANGE_LOCK_KEY]);
      return work(manager);
    });
  }

  /** Enabled admins other than `userId`. */
  countEnabledAdminsExcept(userId: string, manager?: EntityManager): Promise<number> {
    return this.repo(manager)
      .createQueryBuilder('u')
      .where(`u.role = 'admin' AND u.disabled_at IS NULL AND u.id <> :userId`, { userId })
      .getCount();
  }

  async updateAccess(id: string, change: UserAccessChange, manager?: EntityManager): Promise<UserEntity> {
    await this.repo(manager).update({ id }, change);
    return (await this.findById(id, manager))!;
  }

  /** Which of these user ids exist. */
  async existingIds(ids: readonly string[], manager?: EntityManager): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows: { id: string }[] = await (manager ?? this.dataSource.manager).query(
      'SELECT id FROM user_account WHERE id = ANY($1::uuid[])',
      [[...ids]],
    );
    return new Set(rows.map((row) => row.id));
  }

  /** The user's forge identity with its sealed access token, which is selected nowhere else. */
  async findProviderCredential(userId: string): Promise<{ instance: string; providerUserId: string; sealed: Buffer } | null> {
    const user = await this.repo()
      .createQueryBuilder('u')
      .select(['u.id', 'u.instance', 'u.providerUserId'])
      .addSelect('u.providerTokenSealed')
      .where('u.id = :userId', { userId })
      .getOne();
    if (!user?.providerUserId || !user.providerTokenSealed) return null;
    return { instance: user.instance, providerUserId: user.providerUserId, sealed: user.providerTokenSealed };
  }
}
