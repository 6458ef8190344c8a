import type { DataSource, EntityManager } from 'typeorm';
import { UserEntity, type UserRole } from './entities/user.entity';

export const LOCAL_INSTANCE = 'local';

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
    return repo.save(repo.create({ instance: LOCAL_INSTANCE, providerUserId: null, login: input.login, email: input.email, role: input.role }));
  }

  async anyAdmin(manager?: EntityManager): Promise<boolean> {
    return this.repo(manager).exists({ where: { role: 'admin' } });
  }

}
