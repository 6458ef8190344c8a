import type { MigrationInterface, QueryRunner } from 'typeorm';
import { EVENT_LOCK } from './1795822073138-ChangesFeed';

/**
 * The changes feed's `at` (catalogue_event.created_at) was the column default, now(): the writing
 * transaction's start. A transaction that starts first and commits last then takes a later `seq`
 * (seqs are drawn under the feed's lock, in commit order) but an earlier `at`, so `at` could step
 * back while the cursor moves forward. Both trigger functions now stamp clock_timestamp() taken
 * after the lock: whoever holds it next reads the clock later, so `at` follows `seq`.
 * The mappings are the ChangesFeed migration's, unchanged; only the time is new.
 */
const LOG_AUDITED = (at: string) => `CREATE OR REPLACE FUNCTION catalogue_event_from_audit() RETURNS trigger LANGUAGE plpgsql AS $$
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
  INSERT INTO catalogue_event (txid, type, slug, version, data${at ? ', created_at' : ''})
    VALUES (pg_current_xact_id()::text::bigint, event_type, NEW.slug, event_version, event_data${at ? `, ${at}` : ''});
  RETURN NULL;
END
$$`;

const LOG_DELETED = (at: string) => `CREATE OR REPLACE FUNCTION catalogue_event_plugin_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(${EVENT_LOCK});
  INSERT INTO catalogue_event (txid, type, slug${at ? ', created_at' : ''}) VALUES (pg_current_xact_id()::text::bigint, 'plugin.deleted', OLD.slug${at ? `, ${at}` : ''});
  RETURN NULL;
END
$$`;

export class ChangesFeedClockTime1795831000000 implements MigrationInterface {
  name = 'ChangesFeedClockTime1795831000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(LOG_AUDITED('clock_timestamp()'));
    await queryRunner.query(LOG_DELETED('clock_timestamp()'));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // The ChangesFeed migration's functions, as they were (the column default, now()).
    await queryRunner.query(LOG_AUDITED(''));
    await queryRunner.query(LOG_DELETED(''));
  }
}
