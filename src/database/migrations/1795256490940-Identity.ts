import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Identity1795256490940 implements MigrationInterface {
  name = 'Identity1795256490940';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "user_account" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "instance" character varying(40) NOT NULL, "provider_user_id" character varying(64), "login" character varying(100) NOT NULL, "email" character varying(254), "avatar_url" character varying(500), "role" character varying(10) NOT NULL DEFAULT \'user\', "disabled_at" TIMESTAMP WITH TIME ZONE, "provider_token_sealed" bytea, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6acfec7285fdf9f463462de3e9f" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "idx_user_account_login" ON "user_account"  ("login") ');
    await queryRunner.query('CREATE UNIQUE INDEX "uq_user_account_local_login" ON "user_account"  ("login") WHERE "instance" = \'local\'');
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_user_account_provider" ON "user_account"  ("instance", "provider_user_id") WHERE "provider_user_id" IS NOT NULL',
    );
    await queryRunner.query(
      'CREATE TABLE "user_session" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "revoked_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_adf3b49590842ac3cf54cac451a" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "idx_user_session_user" ON "user_session"  ("user_id") ');
    await queryRunner.query(
      'CREATE TABLE "publisher_token" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "name" character varying(100) NOT NULL, "prefix" character varying(12) NOT NULL, "token_sha256" bytea NOT NULL, "scopes" jsonb NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, "last_used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_cb579862ef421e193cc4a993527" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "uq_publisher_token_hash" ON "publisher_token"  ("token_sha256") ');
    await queryRunner.query('CREATE INDEX "idx_publisher_token_user" ON "publisher_token"  ("user_id") ');
    await queryRunner.query(
      'ALTER TABLE "user_session" ADD CONSTRAINT "FK_13275383dcdf095ee29f2b3455a" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "publisher_token" ADD CONSTRAINT "FK_cc068ba2cb075de44d9680aecaf" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "publisher_token" DROP CONSTRAINT "FK_cc068ba2cb075de44d9680aecaf"');
    await queryRunner.query('ALTER TABLE "user_session" DROP CONSTRAINT "FK_13275383dcdf095ee29f2b3455a"');
    await queryRunner.query('DROP INDEX "public"."idx_publisher_token_user"');
    await queryRunner.query('DROP INDEX "public"."uq_publisher_token_hash"');
    await queryRunner.query('DROP TABLE "publisher_token"');
    await queryRunner.query('DROP INDEX "public"."idx_user_session_user"');
    await queryRunner.query('DROP TABLE "user_session"');
    await queryRunner.query('DROP INDEX "public"."uq_user_account_provider"');
    await queryRunner.query('DROP INDEX "public"."uq_user_account_local_login"');
    await queryRunner.query('DROP INDEX "public"."idx_user_account_login"');
    await queryRunner.query('DROP TABLE "user_account"');
  }
}
