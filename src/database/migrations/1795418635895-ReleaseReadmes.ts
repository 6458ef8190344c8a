import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rendered READMEs move from the release row's `readme_html` jsonb (loaded with every release)
 * to one `release_readme` row per release and locale. Existing entries are copied over first;
 * jsonb does not keep key order, so their positions follow jsonb's own key order.
 */
export class ReleaseReadmes1795418635895 implements MigrationInterface {
  name = 'ReleaseReadmes1795418635895';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "release_readme" ("release_id" uuid NOT NULL, "locale" character varying(35) NOT NULL, "position" smallint NOT NULL, "html" text NOT NULL, CONSTRAINT "PK_7ee6626cbeb18f5232adef00e33" PRIMARY KEY ("release_id", "locale"))',
    );
    await queryRunner.query(
      'ALTER TABLE "release_readme" ADD CONSTRAINT "FK_ea6139ff77b4dc0a8e55e32b250" FOREIGN KEY ("release_id") REFERENCES "release"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(`INSERT INTO "release_readme" ("release_id", "locale", "position", "html")
      SELECT r."id", e.key, e.ordinality - 1, e.value #>> '{}'
      FROM "release" r CROSS JOIN LATERAL jsonb_each(r."readme_html") WITH ORDINALITY AS e(key, value, ordinality)
      WHERE jsonb_typeof(r."readme_html") = 'object' AND jsonb_typeof(e.value) = 'string' AND length(e.key) <= 35`);
    await queryRunner.query('ALTER TABLE "release" DROP COLUMN "readme_html"');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "release" ADD "readme_html" jsonb NOT NULL DEFAULT \'{}\'');
    await queryRunner.query(`UPDATE "release" r SET "readme_html" = s.html
      FROM (SELECT "release_id", jsonb_object_agg("locale", "html" ORDER BY "position") AS html FROM "release_readme" GROUP BY "release_id") s
      WHERE s."release_id" = r."id"`);
    await queryRunner.query('ALTER TABLE "release_readme" DROP CONSTRAINT "FK_ea6139ff77b4dc0a8e55e32b250"');
    await queryRunner.query('DROP TABLE "release_readme"');
  }
}
