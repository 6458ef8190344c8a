import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The kinds (their extension fields) move `settings_version` too, as `app_setting` does: the
 * catalogue's facets read the declared fields from both, and every instance compares that version,
 * read with each catalogue page, with the one its copy of the fields was read under.
 */
export class KindBumpsSettingsVersion1795830000000 implements MigrationInterface {
  name = 'KindBumpsSettingsVersion1795830000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TRIGGER "kind_bumps_settings_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "kind" FOR EACH STATEMENT EXECUTE FUNCTION "bump_settings_version"()',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER "kind_bumps_settings_version" ON "kind"');
  }
}
