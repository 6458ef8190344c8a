import type { DataSource } from 'typeorm';
import { OAuthStateEntity } from './entities/oauth-state.entity';

/** Issued, not yet consumed OAuth states (by SHA-256). */
export class OAuthStatesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Records a new state and prunes the expired ones, so the table holds only live logins. */
  async issue(stateSha256: Buffer, instance: string, expiresAt: Date, now: Date): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query('DELETE FROM oauth_state WHERE expires_at <= $1', [now]);
      await manager.getRepository(OAuthStateEntity).insert({ stateSha256, instance, expiresAt });
    });
  }

  /**
   * Consumes a state in one statement: of two callbacks racing with the same state, exactly one
   * gets the row back. Returns its expiry, or null when it was never issued (or already used).
   */
  async consume(stateSha256: Buffer, instance: string): Promise<Date | null> {
    const [rows] = (await this.dataSource.query('DELETE FROM oauth_state WHERE state_sha256 = $1 AND instance = $2 RETURNING expires_at', [
      stateSha256,
      instance,
    ])) as [{ expires_at: Date }[], number];
    return rows[0]?.expires_at ?? null;
  }
}
