import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Step-up (issue "Hardening, round 4"): a session remembers when its holder last confirmed it was
 * them with a passkey or the current password, so credential changes can ask for a recent one.
 */
export class SessionStepUp1796622643681 implements MigrationInterface {
  name = 'SessionStepUp1796622643681';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "user_session" ADD "verified_at" TIMESTAMP WITH TIME ZONE');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "user_session" DROP COLUMN "verified_at"');
  }
}
