import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What CatalogueChanges1795616840574 logged: the columns the in-memory search index reads. */
const INDEXED = [
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
];
/** The other columns a catalogue list item shows, which instances now hold in memory too (catalogue-items.ts). Not downloads. */
const LISTED = ['license', 'icon', 'latest_version', 'latest_prerelease', 'updated_at', 'repo_url'];

const updateTrigger = (columns: string[]) =>
  `CREATE TRIGGER catalogue_change_update AFTER UPDATE ON "plugin" FOR EACH ROW WHEN (${columns.map((column) => `OLD.${column} IS DISTINCT FROM NEW.${column}`).join(' OR ')}) EXECUTE FUNCTION catalogue_change_log()`;

/** A write to any column a catalogue list item shows logs a change, so every instance forgets its copy of that item. */
export class CatalogueChangeItemColumns1795636584326 implements MigrationInterface {
  name = 'CatalogueChangeItemColumns1795636584326';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER catalogue_change_update ON "plugin"');
    await queryRunner.query(updateTrigger([...INDEXED, ...LISTED]));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER catalogue_change_update ON "plugin"');
    await queryRunner.query(updateTrigger(INDEXED));
  }
}
