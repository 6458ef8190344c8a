import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each release keeps the extension values the catalogue shows (so the listing can follow the
 * latest release, not the last one ingested), and plugins whose fields came from a backport or a
 * prerelease are moved onto that release.
 */
export class ReleaseCatalogueExtensions1795614332816 implements MigrationInterface {
  name = 'ReleaseCatalogueExtensions1795614332816';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "release" ADD "extensions" jsonb');
    // A stored manifest holds the spec's fields; the signed canonical manifest holds those and the
    // declared extension fields (anything else was refused at ingest): the difference.
    await queryRunner.query(`UPDATE "release" SET "extensions" = NULLIF("manifest_canonical"::jsonb - ARRAY(SELECT jsonb_object_keys("manifest")), '{}'::jsonb)
      WHERE jsonb_typeof("manifest_canonical"::jsonb) = 'object'`);
    // The release each plugin shows, by the rule ReleasesRepository.findShown applies (written out
    // here, once, as SQL): live before yanked, stable before prerelease, then the highest SemVer.
    // The README search text follows at the plugin's next release change.
    await queryRunner.query(`UPDATE "plugin" p SET
        "name" = s."manifest"->>'name', "description" = s."manifest"->>'description', "category" = s."manifest"->>'category',
        "kind" = s."manifest"->>'kind', "tags" = COALESCE(s."manifest"->'tags', '[]'::jsonb), "license" = s."manifest"->>'license',
        "icon" = s."manifest"->>'icon', "metadata" = s."manifest", "extensions" = s."extensions"
      FROM (SELECT DISTINCT ON ("plugin_id") "plugin_id", "manifest", "extensions" FROM "release"
            ORDER BY "plugin_id", ("yanked_at" IS NULL) DESC, "prerelease" ASC, "version_sort" DESC) s
      WHERE s."plugin_id" = p."id" AND s."manifest" ? 'name'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "release" DROP COLUMN "extensions"');
  }
}
