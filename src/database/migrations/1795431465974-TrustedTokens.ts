import type { MigrationInterface, QueryRunner } from 'typeorm';

export class TrustedTokens1795431465974 implements MigrationInterface {
  name = 'TrustedTokens1795431465974';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "publisher_token" ADD "trusted" jsonb');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "publisher_token" DROP COLUMN "trusted"');
  }
}
