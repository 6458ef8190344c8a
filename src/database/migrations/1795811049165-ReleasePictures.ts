import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The columns CatalogueChangeDownloads1795781000000 logged. */
const LOGGED = [
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
  'license',
  'icon',
  'latest_version',
  'latest_prerelease',
  'updated_at',
  'repo_url',
  'downloads',
];

const updateTrigger = (columns: string[]) =>
  `CREATE TRIGGER catalogue_change_update AFTER UPDATE ON "plugin" FOR EACH ROW WHEN (${columns.map((column) => `OLD.${column} IS DISTINCT FROM NEW.${column}`).join(' OR ')}) EXECUTE FUNCTION catalogue_change_log()`;

/**
 * Pictures: the encoded icons and screenshots (`image`, by the hash of their bytes), the README
 * image proxy's cache, each release's served pictures, and the plugin's list icon, which list
 * items show and so logs a catalogue change like every other column they show.
 */
export class ReleasePictures1795811049165 implements MigrationInterface {
  name = 'ReleasePictures1795811049165';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "image" ("sha256" character varying(64) NOT NULL, "content_type" character varying(40) NOT NULL, "width" integer NOT NULL, "height" integer NOT NULL, "bytes" bytea NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_aebcc8fb5723fca516c3b1785df" PRIMARY KEY ("sha256"))',
    );
    await queryRunner.query(
      'CREATE TABLE "image_proxy_entry" ("url_sha256" character varying(64) NOT NULL, "sha256" character varying(64) NOT NULL, "content_type" character varying(40) NOT NULL, "bytes" bytea NOT NULL, "fetched_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_44e2d4e599c20418e1b7c9ea0b3" PRIMARY KEY ("url_sha256"))',
    );
    await queryRunner.query('CREATE INDEX "idx_image_proxy_entry_expires_at" ON "image_proxy_entry"  ("expires_at") ');
    await queryRunner.query('ALTER TABLE "plugin" ADD "icon_image" character varying(64)');
    await queryRunner.query('ALTER TABLE "release" ADD "images" jsonb');
    await queryRunner.query('DROP TRIGGER catalogue_change_update ON "plugin"');
    await queryRunner.query(updateTrigger([...LOGGED, 'icon_image']));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER catalogue_change_update ON "plugin"');
    await queryRunner.query(updateTrigger(LOGGED));
    await queryRunner.query('ALTER TABLE "release" DROP COLUMN "images"');
    await queryRunner.query('ALTER TABLE "plugin" DROP COLUMN "icon_image"');
    await queryRunner.query('DROP INDEX "public"."idx_image_proxy_entry_expires_at"');
    await queryRunner.query('DROP TABLE "image_proxy_entry"');
    await queryRunner.query('DROP TABLE "image"');
  }
}
