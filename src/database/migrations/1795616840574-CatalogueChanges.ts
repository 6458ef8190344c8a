import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The columns the in-memory catalogue index reads: a write that changes none of them logs nothing (a download count, say). */
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

/**
 * The catalogue change log: a row per write to a plugin's catalogue columns, made by triggers in
 * the writing transaction, so every instance's in-memory index can catch up with any writer.
 */
export class CatalogueChanges1795616840574 implements MigrationInterface {
  name = 'CatalogueChanges1795616840574';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "catalogue_change" ("seq" BIGSERIAL NOT NULL, "plugin_id" uuid NOT NULL, "txid" bigint NOT NULL, "changed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_dab2805e78eab443ad2b0edec79" PRIMARY KEY ("seq"))',
    );
    await queryRunner.query('CREATE INDEX "idx_catalogue_change_changed_at" ON "catalogue_change"  ("changed_at") ');
    await queryRunner.query('CREATE INDEX "idx_catalogue_change_txid" ON "catalogue_change"  ("txid") ');
    await queryRunner.query(`CREATE FUNCTION catalogue_change_log() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO catalogue_change (plugin_id, txid) VALUES (COALESCE(NEW.id, OLD.id), pg_current_xact_id()::text::bigint);
  RETURN NULL;
END
$$`);
    await queryRunner.query(
      'CREATE TRIGGER catalogue_change_insert_delete AFTER INSERT OR DELETE ON "plugin" FOR EACH ROW EXECUTE FUNCTION catalogue_change_log()',
    );
    const changed = INDEXED.map((column) => `OLD.${column} IS DISTINCT FROM NEW.${column}`).join(' OR ');
    await queryRunner.query(
      `CREATE TRIGGER catalogue_change_update AFTER UPDATE ON "plugin" FOR EACH ROW WHEN (${changed}) EXECUTE FUNCTION catalogue_change_log()`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER catalogue_change_update ON "plugin"');
    await queryRunner.query('DROP TRIGGER catalogue_change_insert_delete ON "plugin"');
    await queryRunner.query('DROP FUNCTION catalogue_change_log()');
    await queryRunner.query('DROP INDEX "public"."idx_catalogue_change_txid"');
    await queryRunner.query('DROP INDEX "public"."idx_catalogue_change_changed_at"');
    await queryRunner.query('DROP TABLE "catalogue_change"');
  }
}
