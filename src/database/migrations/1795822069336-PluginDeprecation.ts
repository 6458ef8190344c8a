import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The columns ReleasePictures1795811049165 logged. */
const LOGGED = [
  'slug',
  'name',
  'description',
  'category',
  'kind',
  'tags',
  'extensions',
  'search_readme',
  'featured',
  'verified_at',
  'latest_release_at',
  'created_at',
  'license',
  'icon',
  'latest_version',
  'latest_prerelease',
  'updated_at',
  'repo_url',
  'downloads',
  'icon_image',
];
/** What list items and the index read of a deprecation. */
const DEPRECATION = ['deprecated_at', 'deprecation_message', 'deprecated_replacement'];

const updateTrigger = (columns: string[]) =>
  `CREATE TRIGGER catalogue_change_update AFTER UPDATE ON "plugin" FOR EACH ROW WHEN (${columns.map((column) => `OLD.${column} IS DISTINCT FROM NEW.${column}`).join(' OR ')}) EXECUTE FUNCTION catalogue_change_log()`;

/** The sort indexes of CatalogueIndexes1795429583227, each led by `lead` (the SQL's first ORDER BY keys). */
const sortIndexes = (lead: string) => [
  `CREATE INDEX "idx_plugin_sort_updated" ON "plugin" (${lead}, latest_release_at DESC NULLS LAST, slug)`,
  `CREATE INDEX "idx_plugin_sort_new" ON "plugin" (${lead}, created_at DESC, slug)`,
  `CREATE INDEX "idx_plugin_sort_name" ON "plugin" (${lead}, name, slug)`,
  `CREATE INDEX "idx_plugin_sort_featured" ON "plugin" (${lead}, featured DESC, latest_release_at DESC NULLS LAST, slug)`,
  `CREATE INDEX "idx_plugin_featured_updated" ON "plugin" (${lead}, latest_release_at DESC NULLS LAST, slug) WHERE featured`,
];
const SORT_INDEXES = ['sort_updated', 'sort_new', 'sort_name', 'sort_featured', 'featured_updated'];

/**
 * Deprecation (docs/publishing-from-ci.md#deprecating-a-plugin): the mark, its message and
 * replacement, and who set it. A deprecated plugin sinks below every other in each sort, so the
 * sort indexes lead with `deprecated_at IS NOT NULL` before the verified-first key, and list items
 * show the mark, so its columns log a catalogue change like every other column they show.
 */
export class PluginDeprecation1795822069336 implements MigrationInterface {
  name = 'PluginDeprecation1795822069336';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "plugin" ADD "deprecated_at" TIMESTAMP WITH TIME ZONE');
    await queryRunner.query('ALTER TABLE "plugin" ADD "deprecation_message" character varying(500)');
    await queryRunner.query('ALTER TABLE "plugin" ADD "deprecated_replacement" character varying(64)');
    await queryRunner.query('ALTER TABLE "plugin" ADD "deprecated_by" uuid');
    await queryRunner.query('DROP TRIGGER catalogue_change_update ON "plugin"');
    await queryRunner.query(updateTrigger([...LOGGED, ...DEPRECATION]));
    for (const index of SORT_INDEXES) await queryRunner.query(`DROP INDEX "idx_plugin_${index}"`);
    for (const sql of sortIndexes('(deprecated_at IS NOT NULL), (verified_at IS NULL)')) await queryRunner.query(sql);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const index of SORT_INDEXES) await queryRunner.query(`DROP INDEX "idx_plugin_${index}"`);
    for (const sql of sortIndexes('(verified_at IS NULL)')) await queryRunner.query(sql);
    await queryRunner.query('DROP TRIGGER catalogue_change_update ON "plugin"');
    await queryRunner.query(updateTrigger(LOGGED));
    await queryRunner.query('ALTER TABLE "plugin" DROP COLUMN "deprecated_by"');
    await queryRunner.query('ALTER TABLE "plugin" DROP COLUMN "deprecated_replacement"');
    await queryRunner.query('ALTER TABLE "plugin" DROP COLUMN "deprecation_message"');
    await queryRunner.query('ALTER TABLE "plugin" DROP COLUMN "deprecated_at"');
  }
}
