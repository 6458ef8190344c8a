import type { MigrationInterface, QueryRunner } from 'typeorm';

const TXID = 'pg_current_xact_id()::text::bigint';

/**
 * The tables whose writes change a plugin's page, and how a statement's changed rows (its
 * transition table, named `changed` in every trigger) name their plugins. One statement trigger
 * per table and event, one INSERT of distinct plugins per statement, however many rows it wrote
 * (the download counter adds to many releases' and plugins' counts in one).
 */
const TABLES = [
  { table: 'plugin', plugins: 'SELECT DISTINCT id FROM changed' },
  { table: 'release', plugins: 'SELECT DISTINCT plugin_id FROM changed' },
  { table: 'plugin_owner', plugins: 'SELECT DISTINCT plugin_id FROM changed' },
  { table: 'release_readme', plugins: 'SELECT DISTINCT r.plugin_id FROM release r WHERE r.id IN (SELECT release_id FROM changed)' },
];
const EVENTS = [
  { event: 'INSERT', rows: 'NEW' },
  { event: 'UPDATE', rows: 'NEW' },
  { event: 'DELETE', rows: 'OLD' },
];

/**
 * Stored plugin pages (plugin_page), kept current by triggers rather than by every writer: a
 * writer that forgets to say it changed a page cannot leave a stale page answering. Every write
 * to a plugin row, its releases, READMEs or owners, and a new login or forge of an owner, logs the
 * plugin in plugin_page_change in the writing transaction. Logging only inserts rows, so it adds
 * no lock another writer could wait for (a stamp on the plugin row did: two re-signing workers
 * deadlocked on it). Every existing plugin starts logged, so its page is built.
 */
export class PluginPages1795804376028 implements MigrationInterface {
  name = 'PluginPages1795804376028';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "plugin_page" ("plugin_id" uuid NOT NULL, "read_snapshot" text NOT NULL, "format" character varying(32) NOT NULL, "body" text NOT NULL, "latest" json NOT NULL, CONSTRAINT "PK_f1cbde59a0f1ba0eacc60723441" PRIMARY KEY ("plugin_id"))',
    );
    await queryRunner.query(
      'CREATE TABLE "plugin_page_change" ("seq" BIGSERIAL NOT NULL, "plugin_id" uuid NOT NULL, "txid" bigint NOT NULL, CONSTRAINT "PK_15563c4d352dcb38db37195a709" PRIMARY KEY ("seq"))',
    );
    await queryRunner.query('CREATE INDEX "idx_plugin_page_change_plugin_txid" ON "plugin_page_change"  ("plugin_id", "txid") ');
    await queryRunner.query(
      'ALTER TABLE "plugin_page" ADD CONSTRAINT "FK_f1cbde59a0f1ba0eacc60723441" FOREIGN KEY ("plugin_id") REFERENCES "plugin"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    for (const { table, plugins } of TABLES) {
      await queryRunner.query(`CREATE FUNCTION ${table}_page_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO plugin_page_change (plugin_id, txid) SELECT plugin, ${TXID} FROM (${plugins}) AS written(plugin);
  RETURN NULL;
END
$$`);
      for (const { event, rows } of EVENTS) {
        await queryRunner.query(
          `CREATE TRIGGER ${table}_page_${event.toLowerCase()} AFTER ${event} ON "${table}" REFERENCING ${rows} TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ${table}_page_change()`,
        );
      }
    }
    await queryRunner.query(`CREATE FUNCTION user_account_page_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO plugin_page_change (plugin_id, txid) SELECT plugin_id, ${TXID} FROM plugin_owner WHERE user_id = NEW.id;
  RETURN NULL;
END
$$`);
    await queryRunner.query(
      'CREATE TRIGGER user_account_page_update AFTER UPDATE ON "user_account" FOR EACH ROW WHEN (OLD.login IS DISTINCT FROM NEW.login OR OLD.instance IS DISTINCT FROM NEW.instance) EXECUTE FUNCTION user_account_page_change()',
    );
    await queryRunner.query(`INSERT INTO plugin_page_change (plugin_id, txid) SELECT id, ${TXID} FROM plugin`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER user_account_page_update ON "user_account"');
    await queryRunner.query('DROP FUNCTION user_account_page_change()');
    for (const { table } of TABLES) {
      for (const { event } of EVENTS) await queryRunner.query(`DROP TRIGGER ${table}_page_${event.toLowerCase()} ON "${table}"`);
      await queryRunner.query(`DROP FUNCTION ${table}_page_change()`);
    }
    await queryRunner.query('ALTER TABLE "plugin_page" DROP CONSTRAINT "FK_f1cbde59a0f1ba0eacc60723441"');
    await queryRunner.query('DROP INDEX "public"."idx_plugin_page_change_plugin_txid"');
    await queryRunner.query('DROP TABLE "plugin_page_change"');
    await queryRunner.query('DROP TABLE "plugin_page"');
  }
}
