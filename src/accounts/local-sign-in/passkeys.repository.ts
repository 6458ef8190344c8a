import type { DataSource, EntityManager } from 'typeorm';
import { UserEntity } from '../../platform/users/entities/user.entity';
import { PasskeyCredentialEntity } from './entities/passkey-credential.entity';

export type NewPasskey = Pick<
  PasskeyCredentialEntity,
  'userId' | 'credentialId' | 'publicKey' | 'signCount' | 'transports' | 'name' | 'deviceType' | 'backedUp'
>;

/** Every query on passkeys. */
export class PasskeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(PasskeyCredentialEntity);
  }

  listFor(userId: string): Promise<PasskeyCredentialEntity[]> {
    return this.repo().find({ where: { userId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  countFor(userId: string): Promise<number> {
    return this.repo().countBy({ userId });
  }

  /** The passkey with its user, by the authenticator's credential id. */
  findByCredentialId(credentialId: string): Promise<PasskeyCredentialEntity | null> {
    return this.repo().findOne({ where: { credentialId }, relations: { user: true } });
  }

  findOwned(id: string, userId: string): Promise<PasskeyCredentialEntity | null> {
    return this.repo().findOneBy({ id, userId });
  }

  /**
   * Stores a new passkey unless its user has `limit` already (null then): counted inside one
   * transaction with the user's row locked, so registrations finished at once cannot pass the limit.
   */
  async createWithin(limit: number, passkey: NewPasskey): Promise<PasskeyCredentialEntity | null> {
    return this.dataSource.transaction(async (manager) => {
      await manager
        .getRepository(UserEntity)
        .createQueryBuilder('u')
        .select('u.id')
        .where('u.id = :id', { id: passkey.userId })
        .setLock('pessimistic_write')
        .getOne();
      if ((await this.repo(manager).countBy({ userId: passkey.userId })) >= limit) return null;
      return this.create(passkey, manager);
    });
  }

  async create(passkey: NewPasskey, manager?: EntityManager): Promise<PasskeyCredentialEntity> {
    const repo = this.repo(manager);
    return repo.save(repo.create({ ...passkey, lastUsedAt: null }));
  }

  /** A sign-in with the passkey: its counter only ever goes up (two sign-ins racing cannot lower it). */
  async used(id: string, signCount: number, at: Date): Promise<void> {
    await this.repo()
      .createQueryBuilder()
      .update()
      .set({ signCount: () => 'GREATEST(sign_count, :signCount)', lastUsedAt: at })
      .where('id = :id', { id })
      .setParameters({ signCount })
      .execute();
  }

  async rename(id: string, name: string): Promise<void> {
    await this.repo().update({ id }, { name });
  }

  async remove(id: string, manager?: EntityManager): Promise<void> {
    await this.repo(manager).delete({ id });
  }
}
