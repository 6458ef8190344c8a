import type { MigrationInterface, QueryRunner } from 'typeorm';

export class FeedIndexes1795822368139 implements MigrationInterface {
  name = 'FeedIndexes1795822368139';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX "idx_release_plugin_feed" ON "release"  ("plugin_id", "created_at") WHERE "yanked_at" IS NULL');
    await queryRunner.query('CREATE INDEX "idx_release_feed" ON "release"  ("created_at", "id") WHERE "yanked_at" IS NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."idx_release_feed"');
    await queryRunner.query('DROP INDEX "public"."idx_release_plugin_feed"');
  }
}
