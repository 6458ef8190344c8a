import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ImageProxyFailures1795814909081 implements MigrationInterface {
  name = 'ImageProxyFailures1795814909081';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "image_proxy_entry" ADD "status" character varying(24) NOT NULL DEFAULT \'ok\'');
    await queryRunner.query('ALTER TABLE "image_proxy_entry" ADD "detail" character varying(500)');
    await queryRunner.query('ALTER TABLE "image_proxy_entry" ALTER COLUMN "sha256" DROP NOT NULL');
    await queryRunner.query('ALTER TABLE "image_proxy_entry" ALTER COLUMN "content_type" DROP NOT NULL');
    await queryRunner.query('ALTER TABLE "image_proxy_entry" ALTER COLUMN "bytes" DROP NOT NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // Remembered failures have no picture; the older schema cannot hold them.
    await queryRunner.query('DELETE FROM "image_proxy_entry" WHERE "status" <> \'ok\'');
    await queryRunner.query('ALTER TABLE "image_proxy_entry" ALTER COLUMN "bytes" SET NOT NULL');
    await queryRunner.query('ALTER TABLE "image_proxy_entry" ALTER COLUMN "content_type" SET NOT NULL');
    await queryRunner.query('ALTER TABLE "image_proxy_entry" ALTER COLUMN "sha256" SET NOT NULL');
    await queryRunner.query('ALTER TABLE "image_proxy_entry" DROP COLUMN "detail"');
    await queryRunner.query('ALTER TABLE "image_proxy_entry" DROP COLUMN "status"');
  }
}
