import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Freshness statements are no longer stored (issue 27): each names the plugin's own log position
 * and the start of its reissue period, so every instance signs the same bytes without a table to
 * agree through. `plugin.log_size` is that position: the log's size just after the plugin's last
 * release, yank or unyank entry, taken here from the entries already logged.
 */
export class FreshnessFromPluginLogSize1795846411031 implements MigrationInterface {
  name = 'FreshnessFromPluginLogSize1795846411031';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "plugin" ADD "log_size" bigint NOT NULL DEFAULT \'0\'');
    await queryRunner.query(
      `UPDATE "plugin" p SET "log_size" = logged."size"
         FROM (SELECT e.entry->>'slug' AS slug, max(e."index") + 1 AS "size"
                 FROM (SELECT "index", convert_from("entry", 'UTF8')::jsonb AS entry FROM "transparency_leaf") e
                WHERE e.entry->>'type' IN ('release', 'yank', 'unyank')
                GROUP BY 1) logged
        WHERE p."slug" = logged.slug`,
    );
    await queryRunner.query('DROP TABLE "freshness_statement"');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE UNLOGGED TABLE "freshness_statement" ("slug" character varying(214) NOT NULL, "platform" character varying(64) NOT NULL, "version" character varying(256) NOT NULL, "asset_sha256" character varying(64), "tree_size" bigint NOT NULL, "jws" text NOT NULL, "issued_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_2e9aa1396501c2f99a9ff921182" PRIMARY KEY ("slug", "platform"))',
    );
    await queryRunner.query('ALTER TABLE "plugin" DROP COLUMN "log_size"');
  }
}
