import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Catalogue1795256824766 implements MigrationInterface {
  name = 'Catalogue1795256824766';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "kind" ("key" character varying(40) NOT NULL, "label" character varying(100) NOT NULL, "description" character varying(500), "enabled" boolean NOT NULL DEFAULT true, "extension_fields" jsonb NOT NULL DEFAULT \'[]\', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_aef3a6b46be3aaf855ce3095934" PRIMARY KEY ("key"))',
    );
    await queryRunner.query(
      'CREATE TABLE "plugin" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "slug" character varying(64) NOT NULL, "name" character varying(64) NOT NULL, "repo_url" character varying(2048) NOT NULL, "repo_identity" character varying(2048) NOT NULL, "description" character varying(280), "category" character varying(40), "kind" character varying(40), "tags" jsonb NOT NULL DEFAULT \'[]\', "license" character varying(40), "icon" character varying(500), "metadata" jsonb NOT NULL DEFAULT \'{}\', "extensions" jsonb, "latest_version" character varying(40), "latest_release_at" TIMESTAMP WITH TIME ZONE, "featured" boolean NOT NULL DEFAULT false, "verified_at" TIMESTAMP WITH TIME ZONE, "verified_by" uuid, "downloads" bigint NOT NULL DEFAULT \'0\', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_9a65387180b2e67287345684c03" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "uq_plugin_repo_identity" ON "plugin"  ("repo_identity") ');
    await queryRunner.query('CREATE UNIQUE INDEX "uq_plugin_slug" ON "plugin"  ("slug") ');
    await queryRunner.query(
      'CREATE TABLE "plugin_owner" ("plugin_id" uuid NOT NULL, "user_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_3efa4e51f0ef6a3af3174bd1a6c" PRIMARY KEY ("plugin_id", "user_id"))',
    );
    await queryRunner.query('CREATE INDEX "idx_plugin_owner_user" ON "plugin_owner"  ("user_id") ');
    await queryRunner.query(
      'CREATE TABLE "release" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "plugin_id" uuid NOT NULL, "version" character varying(40) NOT NULL, "version_key" character varying(40) NOT NULL, "prerelease" boolean NOT NULL DEFAULT false, "min_runtime_version" character varying(40), "assets" jsonb NOT NULL, "integrity" jsonb, "manifest" jsonb NOT NULL, "manifest_raw" text NOT NULL, "manifest_sha256" character varying(64) NOT NULL, "readme_html" jsonb NOT NULL DEFAULT \'{}\', "source" character varying(10) NOT NULL, "yanked_at" TIMESTAMP WITH TIME ZONE, "yank_reason" character varying(500), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_1a2253436964eea9c558f9464f4" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "uq_release_plugin_version_key" ON "release"  ("plugin_id", "version_key") ');
    await queryRunner.query(
      'ALTER TABLE "plugin_owner" ADD CONSTRAINT "FK_3b4e2b11cb92def6619cc01e641" FOREIGN KEY ("plugin_id") REFERENCES "plugin"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "plugin_owner" ADD CONSTRAINT "FK_a81beb2a601e20620dfd7935728" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "release" ADD CONSTRAINT "FK_80b5835ef966f5c945abe48099b" FOREIGN KEY ("plugin_id") REFERENCES "plugin"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "release" DROP CONSTRAINT "FK_80b5835ef966f5c945abe48099b"');
    await queryRunner.query('ALTER TABLE "plugin_owner" DROP CONSTRAINT "FK_a81beb2a601e20620dfd7935728"');
    await queryRunner.query('ALTER TABLE "plugin_owner" DROP CONSTRAINT "FK_3b4e2b11cb92def6619cc01e641"');
    await queryRunner.query('DROP INDEX "public"."uq_release_plugin_version_key"');
    await queryRunner.query('DROP TABLE "release"');
    await queryRunner.query('DROP INDEX "public"."idx_plugin_owner_user"');
    await queryRunner.query('DROP TABLE "plugin_owner"');
    await queryRunner.query('DROP INDEX "public"."uq_plugin_slug"');
    await queryRunner.query('DROP INDEX "public"."uq_plugin_repo_identity"');
    await queryRunner.query('DROP TABLE "plugin"');
    await queryRunner.query('DROP TABLE "kind"');
  }
}
