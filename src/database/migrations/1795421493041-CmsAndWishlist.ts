import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CmsAndWishlist1795421493041 implements MigrationInterface {
  name = 'CmsAndWishlist1795421493041';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "site_branding" ("id" smallint NOT NULL DEFAULT \'1\', "site_name" character varying(100), "logo_url" character varying(2048), "primary_color" character varying(7), "links" jsonb NOT NULL DEFAULT \'[]\', "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "ck_site_branding_single_row" CHECK ("id" = 1), CONSTRAINT "PK_8f149e0fb905a92fc55623be613" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE TABLE "feature_flag" ("name" character varying(40) NOT NULL, "enabled" boolean NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0cb1810eca363db1e0bf13c3cf3" PRIMARY KEY ("name"))',
    );
    await queryRunner.query(
      'CREATE TABLE "cms_page" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "slug" character varying(64) NOT NULL, "locale" character varying(5) NOT NULL, "title" character varying(200) NOT NULL, "markdown" text NOT NULL, "html" text NOT NULL, "published" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_930fa3419b13beec75cc102b600" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "uq_cms_page_slug_locale" ON "cms_page"  ("slug", "locale") ');
    await queryRunner.query(
      'CREATE TABLE "site_languages" ("id" smallint NOT NULL DEFAULT \'1\', "default_locale" character varying(5) NOT NULL, "locales" jsonb NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "ck_site_languages_single_row" CHECK ("id" = 1), CONSTRAINT "PK_77d32ee9dca0370a482ce07ca40" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE TABLE "plugin_request" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "title" character varying(200) NOT NULL, "description" character varying(2000), "kind" character varying(40), "status" character varying(16) NOT NULL DEFAULT \'open\', "votes" integer NOT NULL DEFAULT \'0\', "plugin_id" uuid, "created_by" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "ck_plugin_request_votes" CHECK ("votes" >= 0), CONSTRAINT "ck_plugin_request_status" CHECK ("status" IN (\'open\', \'fulfilled\', \'closed\')), CONSTRAINT "PK_b167ffce7e049dc6ef51f247870" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "idx_plugin_request_status_created" ON "plugin_request"  ("status", "created_at") ');
    await queryRunner.query('CREATE INDEX "idx_plugin_request_status_votes" ON "plugin_request"  ("status", "votes", "created_at") ');
    await queryRunner.query(
      'CREATE TABLE "plugin_request_vote" ("request_id" uuid NOT NULL, "user_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a3900cbda387c3d12dc0f2aa9ca" PRIMARY KEY ("request_id", "user_id"))',
    );
    await queryRunner.query('CREATE INDEX "idx_plugin_request_vote_user" ON "plugin_request_vote"  ("user_id") ');
    await queryRunner.query(
      'ALTER TABLE "plugin_request" ADD CONSTRAINT "FK_55b88768a2529046c1968f55b09" FOREIGN KEY ("plugin_id") REFERENCES "plugin"("id") ON DELETE SET NULL ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "plugin_request" ADD CONSTRAINT "FK_51210dff8d7895334d4f187bfad" FOREIGN KEY ("created_by") REFERENCES "user_account"("id") ON DELETE SET NULL ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "plugin_request_vote" ADD CONSTRAINT "FK_80146613ddec34a734778fbc05c" FOREIGN KEY ("request_id") REFERENCES "plugin_request"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "plugin_request_vote" ADD CONSTRAINT "FK_61616a2bc82e26480dd78cedb4f" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "plugin_request_vote" DROP CONSTRAINT "FK_61616a2bc82e26480dd78cedb4f"');
    await queryRunner.query('ALTER TABLE "plugin_request_vote" DROP CONSTRAINT "FK_80146613ddec34a734778fbc05c"');
    await queryRunner.query('ALTER TABLE "plugin_request" DROP CONSTRAINT "FK_51210dff8d7895334d4f187bfad"');
    await queryRunner.query('ALTER TABLE "plugin_request" DROP CONSTRAINT "FK_55b88768a2529046c1968f55b09"');
    await queryRunner.query('DROP INDEX "public"."idx_plugin_request_vote_user"');
    await queryRunner.query('DROP TABLE "plugin_request_vote"');
    await queryRunner.query('DROP INDEX "public"."idx_plugin_request_status_votes"');
    await queryRunner.query('DROP INDEX "public"."idx_plugin_request_status_created"');
    await queryRunner.query('DROP TABLE "plugin_request"');
    await queryRunner.query('DROP TABLE "site_languages"');
    await queryRunner.query('DROP INDEX "public"."uq_cms_page_slug_locale"');
    await queryRunner.query('DROP TABLE "cms_page"');
    await queryRunner.query('DROP TABLE "feature_flag"');
    await queryRunner.query('DROP TABLE "site_branding"');
  }
}
