import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Releases by the kid that signed them: the re-sign worker's batches and pending counts, without a scan of every release. */
export class ReleaseSigningKidIndex1795437252267 implements MigrationInterface {
  name = 'ReleaseSigningKidIndex1795437252267';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "idx_release_signing_kid" ON "release" (("integrity"->>'kid'))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "idx_release_signing_kid"');
  }
}
