import type { DataSource } from 'typeorm';
import type { ChallengePurpose } from './entities/webauthn-challenge.entity';
import { WebAuthnChallengeEntity } from './entities/webauthn-challenge.entity';

/** Every query on WebAuthn challenges. */
export class ChallengesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo() {
    return this.dataSource.manager.getRepository(WebAuthnChallengeEntity);
  }

  /** Stores a challenge, and forgets the expired ones. */
  async create(challengeSha256: Buffer, purpose: ChallengePurpose, userId: string | null, expiresAt: Date, now: Date): Promise<void> {
    await this.repo().createQueryBuilder().delete().where('expires_at < :now', { now }).execute();
    await this.repo().insert({ challengeSha256, purpose, userId, expiresAt });
  }

  /** Takes the challenge (deletes it) when it is unexpired and made for this purpose and user; whether it was. */
  async take(challengeSha256: Buffer, purpose: ChallengePurpose, userId: string | null, now: Date): Promise<boolean> {
    const query = this.repo()
      .createQueryBuilder()
      .delete()
      .where('challenge_sha256 = :sha AND purpose = :purpose AND expires_at > :now', { sha: challengeSha256, purpose, now });
    if (userId === null) query.andWhere('user_id IS NULL');
    else query.andWhere('user_id = :userId', { userId });
    const result = await query.execute();
    return (result.affected ?? 0) > 0;
  }
}
