import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The columns CatalogueChangeItemColumns1795636584326 logged: the search index's and the other ones a list item shows. */
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
];

const updateTrigger = (columns: string[]) =>
  `CREATE TRIGGER catalogue_change_update AFTER UPDATE ON "plugin" FOR EACH ROW WHEN (${columns.map((column) => `OLD.${column} IS DISTINCT FROM NEW.${column}`).join(' OR ')}) EXECUTE FUNCTION catalogue_change_log()`;

/**
 * A plugin's download count logs a change too, so the list items every instance holds carry
 * their counts and a page reads only its change log (catalogue-items.ts). The download counter
 * writes counts at most once a second per instance, one statement per batch.
 */
export class CatalogueChangeDownloads1795781000000 implements MigrationInterface {
  name = 'CatalogueChangeDownloads1795781000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER catalogue_change_update ON "plugin"');
    await queryRunner.query(updateTrigger([...LOGGED, 'downloads']));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER catalogue_change_update ON "plugin"');
    await queryRunner.query(updateTrigger(LOGGED));
  }
}
