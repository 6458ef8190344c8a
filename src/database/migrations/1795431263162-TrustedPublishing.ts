import type { MigrationInterface, QueryRunner } from 'typeorm';

export class TrustedPublishing1795431263162 implements MigrationInterface {
  name = 'TrustedPublishing1795431263162';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "pending_publisher" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "slug" character varying(64) NOT NULL, "forge" character varying(40) NOT NULL, "repository_id" character varying(64) NOT NULL, "repository_path" character varying(512) NOT NULL, "workflow" character varying(512), "ref_pattern" character varying(255), "environment" character varying(255), "repo_url" character varying(2048) NOT NULL, "repo_identity" character varying(2048) NOT NULL, "repo_verified" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0101e86b35cdb69f12ad802fa9e" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "idx_pending_publisher_user" ON "pending_publisher"  ("user_id") ');
    await queryRunner.query('CREATE UNIQUE INDEX "uq_pending_publisher_repository" ON "pending_publisher"  ("forge", "repository_id") ');
    await queryRunner.query('CREATE UNIQUE INDEX "uq_pending_publisher_slug" ON "pending_publisher"  ("slug") ');
    await queryRunner.query(
      'CREATE TABLE "trusted_publisher" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "plugin_id" uuid NOT NULL, "forge" character varying(40) NOT NULL, "repository_id" character varying(64) NOT NULL, "repository_path" character varying(512) NOT NULL, "workflow" character varying(512), "ref_pattern" character varying(255), "environment" character varying(255), "allow_yank" boolean NOT NULL DEFAULT false, "created_by" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_506c4529d4ee3803ed3af88d0d1" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "idx_trusted_publisher_plugin" ON "trusted_publisher"  ("plugin_id") ');
    await queryRunner.query('CREATE INDEX "idx_trusted_publisher_repository" ON "trusted_publisher"  ("forge", "repository_id") ');
    await queryRunner.query(
      'CREATE TABLE "oidc_used_token" ("key_sha256" character varying(64) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_f4723eb26af5e11aae280ef14f2" PRIMARY KEY ("key_sha256"))',
    );
    await queryRunner.query('CREATE INDEX "idx_oidc_used_token_expires" ON "oidc_used_token"  ("expires_at") ');
    await queryRunner.query(
      'ALTER TABLE "pending_publisher" ADD CONSTRAINT "FK_7ba6aa889a1d12a3f264dff3bd0" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "trusted_publisher" ADD CONSTRAINT "FK_393768d921ddb3ee582205e3105" FOREIGN KEY ("plugin_id") REFERENCES "plugin"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "trusted_publisher" ADD CONSTRAINT "FK_cd6032f8603dc4cb8c9ea807d03" FOREIGN KEY ("created_by") REFERENCES "user_account"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "trusted_publisher" DROP CONSTRAINT "FK_cd6032f8603dc4cb8c9ea807d03"');
    await queryRunner.query('ALTER TABLE "trusted_publisher" DROP CONSTRAINT "FK_393768d921ddb3ee582205e3105"');
    await queryRunner.query('ALTER TABLE "pending_publisher" DROP CONSTRAINT "FK_7ba6aa889a1d12a3f264dff3bd0"');
    await queryRunner.query('DROP INDEX "public"."idx_oidc_used_token_expires"');
    await queryRunner.query('DROP TABLE "oidc_used_token"');
    await queryRunner.query('DROP INDEX "public"."idx_trusted_publisher_repository"');
    await queryRunner.query('DROP INDEX "public"."idx_trusted_publisher_plugin"');
    await queryRunner.query('DROP TABLE "trusted_publisher"');
    await queryRunner.query('DROP INDEX "public"."uq_pending_publisher_slug"');
    await queryRunner.query('DROP INDEX "public"."uq_pending_publisher_repository"');
    await queryRunner.query('DROP INDEX "public"."idx_pending_publisher_user"');
    await queryRunner.query('DROP TABLE "pending_publisher"');
  }
}
