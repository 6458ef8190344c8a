import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A deprecated plugin's replacement is a foreign key to the replacement's slug, ON DELETE SET NULL:
 * deleting a plugin (operator SQL; the API never deletes one) clears every replacement that named
 * it, through an UPDATE the catalogue_change trigger logs, so no notice, list item or `Link`
 * header points at a plugin that is gone. A replacement already dangling is cleared first.
 */
export class DeprecationReplacementKey1795827107966 implements MigrationInterface {
  name = 'DeprecationReplacementKey1795827107966';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'UPDATE "plugin" p SET "deprecated_replacement" = NULL WHERE p."deprecated_replacement" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "plugin" r WHERE r."slug" = p."deprecated_replacement")',
    );
    await queryRunner.query(
      'ALTER TABLE "plugin" ADD CONSTRAINT "fk_plugin_deprecated_replacement" FOREIGN KEY ("deprecated_replacement") REFERENCES "plugin"("slug") ON DELETE SET NULL ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "plugin" DROP CONSTRAINT "fk_plugin_deprecated_replacement"');
  }
}
