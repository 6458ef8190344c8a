import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pictures are stored as soon as they are encoded, as pending until their release is recorded
 * (so an ingest holds none of its encodings in memory meanwhile); a
 * pending row whose ingest failed is deleted once its time has passed. Rows already stored belong
 * to recorded releases (or to a manifest refresh): confirmed.
 */
export class ImagePending1796649000000 implements MigrationInterface {
  name = 'ImagePending1796649000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "image" ADD "pending_until" TIMESTAMP WITH TIME ZONE');
    await queryRunner.query('CREATE INDEX "idx_image_pending_until" ON "image" ("pending_until") WHERE "pending_until" IS NOT NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "idx_image_pending_until"');
    await queryRunner.query('ALTER TABLE "image" DROP COLUMN "pending_until"');
  }
}
