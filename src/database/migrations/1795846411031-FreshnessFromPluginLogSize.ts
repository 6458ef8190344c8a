import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Freshness statements (docs/verifying-downloads.md#freshness) are no longer stored: each names the
 * plugin's own log position and the start of its reissue period, so every instance signs the same
 * bytes without a table to agree through. `plugin.log_size` is that position: the log's size just
 * after the plugin's last release, yank, unyank or delete entry. Statements signed before this
 * named the whole log's size, and clients remember the largest they saw: every plugin starts at the
 * whole log's size now, which is no smaller than any statement served before and holds every entry
 * behind it.
 */
export class FreshnessFromPluginLogSize1795846411031 implements MigrationInterface {
  name = 'FreshnessFromPluginLogSize1795846411031';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "plugin" ADD "log_size" bigint NOT NULL DEFAULT \'0\'');
    await queryRunner.query('UPDATE "plugin" SET "log_size" = (SELECT coalesce(max("index") + 1, 0) FROM "transparency_leaf")');
    await queryRunner.query('DROP TABLE "freshness_statement"');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE UNLOGGED TABLE "freshness_statement" ("slug" character varying(214) NOT NULL, "platform" character varying(64) NOT NULL, "version" character varying(256) NOT NULL, "asset_sha256" character varying(64), "tree_size" bigint NOT NULL, "jws" text NOT NULL, "issued_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_2e9aa1396501c2f99a9ff921182" PRIMARY KEY ("slug", "platform"))',
    );
    await queryRunner.query('ALTER TABLE "plugin" DROP COLUMN "log_size"');
  }
}
