import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The plugin count kept by statement-level triggers (transition tables, so a bulk insert costs
 * one update), for the unfiltered catalogue total. TRUNCATE resets it.
 */
export class PluginCount1795433700057 implements MigrationInterface {
  name = 'PluginCount1795433700057';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "plugin_count" ("id" smallint NOT NULL, "plugins" bigint NOT NULL DEFAULT \'0\', CONSTRAINT "ck_plugin_count_single_row" CHECK ("id" = 1), CONSTRAINT "PK_008de47d1f31eee29e7cea67880" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('INSERT INTO "plugin_count" ("id", "plugins") SELECT 1, count(*) FROM "plugin"');
    await queryRunner.query(`CREATE FUNCTION plugin_count_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE plugin_count SET plugins = plugins + (SELECT count(*) FROM added) WHERE id = 1;
  RETURN NULL;
END
$$`);
    await queryRunner.query(`CREATE FUNCTION plugin_count_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE plugin_count SET plugins = plugins - (SELECT count(*) FROM removed) WHERE id = 1;
  RETURN NULL;
END
$$`);
    await queryRunner.query(`CREATE FUNCTION plugin_count_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE plugin_count SET plugins = 0 WHERE id = 1;
  RETURN NULL;
END
$$`);
    await queryRunner.query(
      'CREATE TRIGGER plugin_count_insert AFTER INSERT ON "plugin" REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION plugin_count_insert()',
    );
    await queryRunner.query(
      'CREATE TRIGGER plugin_count_delete AFTER DELETE ON "plugin" REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION plugin_count_delete()',
    );
    await queryRunner.query(
      'CREATE TRIGGER plugin_count_truncate AFTER TRUNCATE ON "plugin" FOR EACH STATEMENT EXECUTE FUNCTION plugin_count_truncate()',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const event of ['insert', 'delete', 'truncate']) {
      await queryRunner.query(`DROP TRIGGER plugin_count_${event} ON "plugin"`);
      await queryRunner.query(`DROP FUNCTION plugin_count_${event}()`);
    }
    await queryRunner.query('DROP TABLE "plugin_count"');
  }
}
