import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One row whose version moves with every statement that writes `app_setting`, in the writing
 * transaction: each instance compares it with its cached settings' version before using them.
 * A trigger rather than application code, so the CLI, the kinds API and plain SQL bump it too.
 */
export class SettingsVersion1795421652956 implements MigrationInterface {
  name = 'SettingsVersion1795421652956';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "settings_version" ("id" smallint NOT NULL, "version" bigint NOT NULL DEFAULT \'0\', CONSTRAINT "ck_settings_version_single_row" CHECK ("id" = 1), CONSTRAINT "PK_11e692f94cf197b408a0043a6fb" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('INSERT INTO "settings_version" ("id", "version") VALUES (1, 0)');
    await queryRunner.query(`CREATE FUNCTION "bump_settings_version"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE "settings_version" SET "version" = "version" + 1 WHERE "id" = 1;
        RETURN NULL;
      END
    $$`);
    await queryRunner.query(
      'CREATE TRIGGER "app_setting_bumps_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "app_setting" FOR EACH STATEMENT EXECUTE FUNCTION "bump_settings_version"()',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER "app_setting_bumps_version" ON "app_setting"');
    await queryRunner.query('DROP FUNCTION "bump_settings_version"()');
    await queryRunner.query('DROP TABLE "settings_version"');
  }
}
