import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The changes feed's log (`catalogue_event`), filled by triggers in the changing transaction: on
 * `audit_entry` for the audited public actions (so every path that audits, any instance or the
 * operator CLI, is covered), and on `plugin` for deletions (no path audits those yet).
 *
 * Order: each writer takes one transaction-scoped advisory lock before drawing its `seq`, and
 * keeps it until it commits or rolls back. So a later `seq` never commits before an earlier one:
 * what a reader sees of the log is always a prefix of `seq` order, and a cursor handed out never
 * has a row appear behind it. The lock is held from the audit row (the last statement of the
 * audited transactions) to the commit: public catalogue writes queue for that short span.
 *
 * The mapping below is the feed's contract (docs/changes-feed.md): the audit action, the feed type,
 * and the public fields copied (never an actor, an address or a user id). `plugin.deprecate` and
 * `plugin.undeprecate` come from the deprecation work (details {message, replacement}).
 */
export const EVENT_LOCK = 7_322_641; // any constant; pg_advisory_xact_lock's key for the feed's writers

const LOG_AUDITED = `CREATE FUNCTION catalogue_event_from_audit() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  event_type text;
  event_data jsonb := '{}'::jsonb;
  event_version text := NEW.details->>'version';
BEGIN
  CASE NEW.action
    WHEN 'plugin.publish' THEN event_type := 'release.published'; event_data := jsonb_build_object('kid', NEW.details->'kid');
    WHEN 'plugin.yank' THEN event_type := 'release.yanked'; event_data := jsonb_build_object('reason', NEW.details->'reason');
    WHEN 'plugin.unyank' THEN event_type := 'release.unyanked';
    WHEN 'release.delete' THEN event_type := 'release.deleted';
    WHEN 'plugin.manifest_refresh' THEN event_type := 'plugin.updated'; event_version := NULL;
    WHEN 'plugin.verify' THEN event_type := 'plugin.verified'; event_version := NULL;
    WHEN 'plugin.unverify' THEN event_type := 'plugin.unverified'; event_version := NULL;
    WHEN 'plugin.feature' THEN event_type := 'plugin.featured'; event_version := NULL;
    WHEN 'plugin.unfeature' THEN event_type := 'plugin.unfeatured'; event_version := NULL;
    WHEN 'plugin.deprecate' THEN event_type := 'plugin.deprecated'; event_version := NULL;
      event_data := jsonb_build_object('message', NEW.details->'message', 'replacement', NEW.details->'replacement');
    WHEN 'plugin.undeprecate' THEN event_type := 'plugin.undeprecated'; event_version := NULL;
    WHEN 'plugin.owners_change' THEN event_type := 'plugin.owners_changed'; event_version := NULL;
    WHEN 'key.rotate' THEN event_type := 'keys.changed'; event_version := NULL; event_data := jsonb_build_object('reason', 'rotate');
    WHEN 'key.resign' THEN event_type := 'keys.changed'; event_version := NULL;
      event_data := jsonb_build_object('reason', 'resign', 'kid', NEW.details->'kid', 'resignedWith', NEW.details->'resignedWith');
    ELSE RETURN NULL;
  END CASE;
  PERFORM pg_advisory_xact_lock(${EVENT_LOCK});
  INSERT INTO catalogue_event (txid, type, slug, version, data)
    VALUES (pg_current_xact_id()::text::bigint, event_type, NEW.slug, event_version, event_data);
  RETURN NULL;
END
$$`;

const LOG_DELETED = `CREATE FUNCTION catalogue_event_plugin_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(${EVENT_LOCK});
  INSERT INTO catalogue_event (txid, type, slug) VALUES (pg_current_xact_id()::text::bigint, 'plugin.deleted', OLD.slug);
  RETURN NULL;
END
$$`;

/** The audit actions the feed logs; the trigger's WHEN skips the rest without calling the function. */
const AUDITED = [
  'plugin.publish',
  'plugin.yank',
  'plugin.unyank',
  'release.delete',
  'plugin.manifest_refresh',
  'plugin.verify',
  'plugin.unverify',
  'plugin.feature',
  'plugin.unfeature',
  'plugin.deprecate',
  'plugin.undeprecate',
  'plugin.owners_change',
  'key.rotate',
  'key.resign',
];

export class ChangesFeed1795822073138 implements MigrationInterface {
  name = 'ChangesFeed1795822073138';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "catalogue_event" ("seq" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "txid" bigint NOT NULL, "type" character varying(32) NOT NULL, "slug" character varying(64), "version" character varying(64), "data" jsonb NOT NULL DEFAULT \'{}\', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_3862efdcbee8b0667b545d4b665" PRIMARY KEY ("seq"))',
    );
    await queryRunner.query(LOG_AUDITED);
    const actions = AUDITED.map((action) => `'${action}'`).join(', ');
    await queryRunner.query(
      `CREATE TRIGGER catalogue_event_audit AFTER INSERT ON "audit_entry" FOR EACH ROW WHEN (NEW.action IN (${actions})) EXECUTE FUNCTION catalogue_event_from_audit()`,
    );
    await queryRunner.query(LOG_DELETED);
    await queryRunner.query(
      'CREATE TRIGGER catalogue_event_plugin_delete AFTER DELETE ON "plugin" FOR EACH ROW EXECUTE FUNCTION catalogue_event_plugin_deleted()',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER catalogue_event_plugin_delete ON "plugin"');
    await queryRunner.query('DROP FUNCTION catalogue_event_plugin_deleted()');
    await queryRunner.query('DROP TRIGGER catalogue_event_audit ON "audit_entry"');
    await queryRunner.query('DROP FUNCTION catalogue_event_from_audit()');
    await queryRunner.query('DROP TABLE "catalogue_event"');
  }
}
