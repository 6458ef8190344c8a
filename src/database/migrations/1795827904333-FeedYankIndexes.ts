import type { MigrationInterface, QueryRunner } from 'typeorm';

export class FeedYankIndexes1795827904333 implements MigrationInterface {
  name = 'FeedYankIndexes1795827904333';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE INDEX "idx_release_plugin_yanked" ON "release"  ("plugin_id", "yanked_at") WHERE "yanked_at" IS NOT NULL',
    );
    await queryRunner.query('CREATE INDEX "idx_release_yanked" ON "release"  ("yanked_at") WHERE "yanked_at" IS NOT NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."idx_release_yanked"');
    await queryRunner.query('DROP INDEX "public"."idx_release_plugin_yanked"');
  }
}
