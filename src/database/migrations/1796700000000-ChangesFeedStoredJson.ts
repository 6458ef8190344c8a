import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each change of the feed is written as its JSON (ChangeDto) once, on insert, into
 * `catalogue_event.change`; a page is then those texts joined. Writing 100 of them per page read
 * (row_to_json, and to_char for `at`) cost the database more than the range scan itself, on
 * every page of a log that never changes behind its head. The text is the one the page query
 * wrote: compact row JSON, `data` as jsonb prints itself, `at` as JavaScript's toISOString.
 */
const CHANGE_JSON = `CREATE FUNCTION catalogue_event_change_json(seq bigint, type text, slug text, version text, data jsonb, created_at timestamptz)
RETURNS text LANGUAGE sql STABLE AS $$
  SELECT row_to_json(r)::text FROM (SELECT seq::text AS cursor, type, slug, version, data,
    to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at) r
$$`;

const STAMP = `CREATE FUNCTION catalogue_event_stamp_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.change := catalogue_event_change_json(NEW.seq, NEW.type, NEW.slug, NEW.version, NEW.data, NEW.created_at);
  RETURN NEW;
END
$$`;

export class ChangesFeedStoredJson1796700000000 implements MigrationInterface {
  name = 'ChangesFeedStoredJson1796700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "catalogue_event" ADD "change" text');
    await queryRunner.query(CHANGE_JSON);
    await queryRunner.query(STAMP);
    // Before the row is stored, when its identity seq is already drawn.
    await queryRunner.query(
      'CREATE TRIGGER catalogue_event_stamp_change BEFORE INSERT OR UPDATE ON "catalogue_event" FOR EACH ROW EXECUTE FUNCTION catalogue_event_stamp_change()',
    );
    await queryRunner.query(
      'UPDATE "catalogue_event" SET "change" = catalogue_event_change_json(seq, type, slug, version, data, created_at)',
    );
    await queryRunner.query('ALTER TABLE "catalogue_event" ALTER COLUMN "change" SET NOT NULL');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER catalogue_event_stamp_change ON "catalogue_event"');
    await queryRunner.query('DROP FUNCTION catalogue_event_stamp_change()');
    await queryRunner.query('DROP FUNCTION catalogue_event_change_json(bigint, text, text, text, jsonb, timestamptz)');
    await queryRunner.query('ALTER TABLE "catalogue_event" DROP COLUMN "change"');
  }
}
