import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a child table's statement trigger bumps: the plugins its changed rows belong to. One
 * function per table, shared by its INSERT, UPDATE and DELETE triggers, which all name their
 * transition table `changed`; one UPDATE a plugin per statement, however many of its rows the
 * statement wrote (the download counter adds to a release's and its plugin's counts in one).
 */
const CHILDREN = [
  { table: 'release', plugins: 'SELECT plugin_id FROM changed' },
  { table: 'plugin_owner', plugins: 'SELECT plugin_id FROM changed' },
  { table: 'release_readme', plugins: 'SELECT r.plugin_id FROM release r WHERE r.id IN (SELECT release_id FROM changed)' },
];
const EVENTS = [
  { event: 'INSERT', rows: 'NEW' },
  { event: 'UPDATE', rows: 'NEW' },
  { event: 'DELETE', rows: 'OLD' },
];

/**
 * Stored plugin pages (plugin_page), kept by triggers rather than by every writer: a writer that
 * forgets to say it changed a page cannot leave a stale page behind. Any write to a plugin row
 * bumps its `page_stamp` and marks it in plugin_page_stale, in the writing transaction; writes to
 * its releases, READMEs and owners, and a new login or instance of an owner, touch the plugin row.
 * A stored page answers only while its stamp is the plugin's; PluginPageBuilder rebuilds the
 * marked ones. Every existing plugin starts marked.
 */
export class PluginPages1795800656145 implements MigrationInterface {
  name = 'PluginPages1795800656145';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("CREATE TABLE \"plugin_page\" (\"plugin_id\" uuid NOT NULL, \"stamp\" bigint NOT NULL, \"format\" character varying(32) NOT NULL, \"body\" text NOT NULL, \"latest\" json NOT NULL, CONSTRAINT \"PK_f1cbde59a0f1ba0eacc60723441\" PRIMARY KEY (\"plugin_id\"))");
    await queryRunner.query("CREATE TABLE \"plugin_page_stale\" (\"plugin_id\" uuid NOT NULL, \"marked_at\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT \"PK_f72982065972e84b5814b3732cc\" PRIMARY KEY (\"plugin_id\"))");
    await queryRunner.query("CREATE INDEX \"idx_plugin_page_stale_marked_at\" ON \"plugin_page_stale\"  (\"marked_at\") ");
    await queryRunner.query("ALTER TABLE \"plugin\" ADD \"page_stamp\" bigint NOT NULL DEFAULT '0'");
    await queryRunner.query("ALTER TABLE \"plugin_page\" ADD CONSTRAINT \"FK_f1cbde59a0f1ba0eacc60723441\" FOREIGN KEY (\"plugin_id\") REFERENCES \"plugin\"(\"id\") ON DELETE CASCADE ON UPDATE NO ACTION");
    await queryRunner.query(`CREATE FUNCTION plugin_page_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    NEW.page_stamp := OLD.page_stamp + 1;
  END IF;
  INSERT INTO plugin_page_stale (plugin_id) VALUES (NEW.id)
    ON CONFLICT (plugin_id) DO UPDATE SET marked_at = excluded.marked_at;
  RETURN NEW;
END
$$`);
    await queryRunner.query('CREATE TRIGGER plugin_page_touch BEFORE INSERT OR UPDATE ON "plugin" FOR EACH ROW EXECUTE FUNCTION plugin_page_touch()');
    for (const { table, plugins } of CHILDREN) {
      await queryRunner.query(`CREATE FUNCTION ${table}_page_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE plugin SET page_stamp = page_stamp + 1 WHERE id IN (${plugins});
  RETURN NULL;
END
$$`);
      for (const { event, rows } of EVENTS) {
        await queryRunner.query(
          `CREATE TRIGGER ${table}_page_${event.toLowerCase()} AFTER ${event} ON "${table}" REFERENCING ${rows} TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION ${table}_page_touch()`,
        );
      }
    }
    await queryRunner.query(`CREATE FUNCTION user_account_page_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE plugin SET page_stamp = page_stamp + 1 WHERE id IN (SELECT plugin_id FROM plugin_owner WHERE user_id = NEW.id);
  RETURN NULL;
END
$$`);
    await queryRunner.query(
      'CREATE TRIGGER user_account_page_update AFTER UPDATE ON "user_account" FOR EACH ROW WHEN (OLD.login IS DISTINCT FROM NEW.login OR OLD.instance IS DISTINCT FROM NEW.instance) EXECUTE FUNCTION user_account_page_touch()',
    );
    await queryRunner.query('INSERT INTO plugin_page_stale (plugin_id) SELECT id FROM plugin');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER user_account_page_update ON "user_account"');
    await queryRunner.query('DROP FUNCTION user_account_page_touch()');
    for (const { table } of CHILDREN) {
      for (const { event } of EVENTS) await queryRunner.query(`DROP TRIGGER ${table}_page_${event.toLowerCase()} ON "${table}"`);
      await queryRunner.query(`DROP FUNCTION ${table}_page_touch()`);
    }
    await queryRunner.query('DROP TRIGGER plugin_page_touch ON "plugin"');
    await queryRunner.query('DROP FUNCTION plugin_page_touch()');
    await queryRunner.query("ALTER TABLE \"plugin_page\" DROP CONSTRAINT \"FK_f1cbde59a0f1ba0eacc60723441\"");
    await queryRunner.query("ALTER TABLE \"plugin\" DROP COLUMN \"page_stamp\"");
    await queryRunner.query("DROP INDEX \"public\".\"idx_plugin_page_stale_marked_at\"");
    await queryRunner.query("DROP TABLE \"plugin_page_stale\"");
    await queryRunner.query("DROP TABLE \"plugin_page\"");
  }
}
