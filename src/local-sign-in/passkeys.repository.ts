import type { DataSource, EntityManager } from 'typeorm';
import { PasskeyCredentialEntity } from './entities/passkey-credential.entity';

export type NewPasskey = Pick<PasskeyCredentialEntity, 'userId' | 'credentialId' | 'publicKey' | 'signCount' | 'transports' | 'name' | 'deviceType' | 'backedUp'>;

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

  async create(passkey: NewPasskey, manager?: EntityManager): Promise<PasskeyCredentialEntity> {
    const repo = this.repo(manager);
    return repo.save(repo.create({ ...passkey, lastUsedAt: null }));
  }

  async used(id: string, signCount: number, at: Date): Promise<void> {
    await this.repo().update({ id }, { signCount, lastUsedAt: at });
  }

  async rename(id: string, name: string): Promise<void> {
    await this.repo().update({ id }, { name });
  }

  async remove(id: string, manager?: EntityManager): Promise<void> {
    await this.repo(manager).delete({ id });
  }
}
