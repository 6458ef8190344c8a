import type { MigrationInterface, QueryRunner } from 'typeorm';

// The weighted search document (docs/decisions.md#catalogue-search-detail-and-the-latest-release):
// name first, then description and tags, then category and kind, then README text. The 'simple'
// configuration: plugin names and tags are identifiers, not English prose to stem.
const SEARCH_DOCUMENT = `setweight(to_tsvector('simple', NEW.name), 'A')
    || setweight(to_tsvector('simple', coalesce(NEW.description, '')), 'B')
    || setweight(to_tsvector('simple', NEW.tags::text), 'B')
    || setweight(to_tsvector('simple', coalesce(NEW.category, '') || ' ' || coalesce(NEW.kind, '')), 'C')
    || setweight(to_tsvector('simple', NEW.search_readme), 'D')`;

/**
 * The catalogue at 100k plugins: a stored search vector kept by a trigger (every write path
 * keeps it current, the CLI's too), GIN indexes for full text, trigram typos and JSON filters,
 * and one index per sort whose leading key is the verified-first expression the query orders by.
 * Each was chosen from EXPLAIN on a 100k-plugin seed (docs/performance.md).
 */
export class CatalogueIndexes1795429583227 implements MigrationInterface {
  name = 'CatalogueIndexes1795429583227';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "plugin" ADD "search_readme" text NOT NULL DEFAULT ''`);
    await queryRunner.query(`ALTER TABLE "plugin" ADD "search_vector" tsvector`);
    await queryRunner.query(`CREATE FUNCTION plugin_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_vector := ${SEARCH_DOCUMENT};
  RETURN NEW;
END
$$`);
    await queryRunner.query(
      `CREATE TRIGGER plugin_search_vector BEFORE INSERT OR UPDATE OF name, description, tags, category, kind, search_readme ON "plugin"
       FOR EACH ROW EXECUTE FUNCTION plugin_search_vector()`,
    );
    await queryRunner.query(`UPDATE "plugin" SET search_readme = search_readme`);
    await queryRunner.query(`CREATE INDEX "idx_plugin_search_vector" ON "plugin" USING gin (search_vector)`);
    await queryRunner.query(`CREATE INDEX "idx_plugin_name_trgm" ON "plugin" USING gin (lower(name) gin_trgm_ops)`);
    await queryRunner.query(
      `CREATE INDEX "idx_plugin_sort_updated" ON "plugin" ((verified_at IS NULL), latest_release_at DESC NULLS LAST, slug)`,
    );
    await queryRunner.query(`CREATE INDEX "idx_plugin_sort_new" ON "plugin" ((verified_at IS NULL), created_at DESC, slug)`);
    await queryRunner.query(`CREATE INDEX "idx_plugin_sort_name" ON "plugin" ((verified_at IS NULL), name, slug)`);
    await queryRunner.query(
      `CREATE INDEX "idx_plugin_sort_featured" ON "plugin" ((verified_at IS NULL), featured DESC, latest_release_at DESC NULLS LAST, slug)`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_plugin_featured_updated" ON "plugin" ((verified_at IS NULL), latest_release_at DESC NULLS LAST, slug) WHERE featured`,
    );
    await queryRunner.query(`CREATE INDEX "idx_plugin_category" ON "plugin" (category)`);
    await queryRunner.query(`CREATE INDEX "idx_plugin_kind" ON "plugin" (kind)`);
    await queryRunner.query(`CREATE INDEX "idx_plugin_tags" ON "plugin" USING gin (tags jsonb_path_ops)`);
    await queryRunner.query(`CREATE INDEX "idx_plugin_extensions" ON "plugin" USING gin (extensions jsonb_path_ops)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const index of [
      'extensions',
      'tags',
      'kind',
      'category',
      'featured_updated',
      'sort_featured',
      'sort_name',
      'sort_new',
      'sort_updated',
      'name_trgm',
      'search_vector',
    ]) {
      await queryRunner.query(`DROP INDEX "idx_plugin_${index}"`);
    }
    await queryRunner.query('DROP TRIGGER plugin_search_vector ON "plugin"');
    await queryRunner.query('DROP FUNCTION plugin_search_vector()');
    await queryRunner.query('ALTER TABLE "plugin" DROP COLUMN "search_vector"');
    await queryRunner.query('ALTER TABLE "plugin" DROP COLUMN "search_readme"');
  }
}
