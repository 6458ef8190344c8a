import type { MigrationInterface, QueryRunner } from 'typeorm';

export class PublishedBy1795431836731 implements MigrationInterface {
  name = 'PublishedBy1795431836731';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "release" ADD "published_by" jsonb');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "release" DROP COLUMN "published_by"');
  }
}
