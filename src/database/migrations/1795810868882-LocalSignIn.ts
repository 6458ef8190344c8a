import type { MigrationInterface, QueryRunner } from 'typeorm';

export class LocalSignIn1795810868882 implements MigrationInterface {
  name = 'LocalSignIn1795810868882';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "passkey_credential" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "credential_id" character varying(1400) NOT NULL, "public_key" bytea NOT NULL, "sign_count" bigint NOT NULL DEFAULT \'0\', "transports" jsonb NOT NULL DEFAULT \'[]\', "name" character varying(100) NOT NULL, "device_type" character varying(20) NOT NULL, "backed_up" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_192d857208b2315375852a6e373" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "idx_passkey_credential_user" ON "passkey_credential"  ("user_id") ');
    await queryRunner.query('CREATE UNIQUE INDEX "uq_passkey_credential_id" ON "passkey_credential"  ("credential_id") ');
    await queryRunner.query(
      'CREATE TABLE "sign_in_link" ("token_sha256" bytea NOT NULL, "user_id" uuid NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_ae6c5a8f488ec559febb24e5e96" PRIMARY KEY ("token_sha256"))',
    );
    await queryRunner.query('CREATE INDEX "idx_sign_in_link_expires" ON "sign_in_link"  ("expires_at") ');
    await queryRunner.query('CREATE INDEX "idx_sign_in_link_user" ON "sign_in_link"  ("user_id") ');
    await queryRunner.query(
      'CREATE TABLE "user_password" ("user_id" uuid NOT NULL, "hash" character varying(255) NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_e3b548b238b28b1170050158167" PRIMARY KEY ("user_id"))',
    );
    await queryRunner.query(
      'CREATE TABLE "webauthn_challenge" ("challenge_sha256" bytea NOT NULL, "purpose" character varying(20) NOT NULL, "user_id" uuid, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_5fba89f2c9dd99bc0f2f7ce1b93" PRIMARY KEY ("challenge_sha256"))',
    );
    await queryRunner.query('CREATE INDEX "idx_webauthn_challenge_expires" ON "webauthn_challenge"  ("expires_at") ');
    await queryRunner.query(
      'ALTER TABLE "passkey_credential" ADD CONSTRAINT "FK_0f2b41aa5fab7caf7a6ef4cdac0" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "sign_in_link" ADD CONSTRAINT "FK_c34b5cb2daa44c0a7bfeaee965e" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "user_password" ADD CONSTRAINT "FK_e3b548b238b28b1170050158167" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "user_password" DROP CONSTRAINT "FK_e3b548b238b28b1170050158167"');
    await queryRunner.query('ALTER TABLE "sign_in_link" DROP CONSTRAINT "FK_c34b5cb2daa44c0a7bfeaee965e"');
    await queryRunner.query('ALTER TABLE "passkey_credential" DROP CONSTRAINT "FK_0f2b41aa5fab7caf7a6ef4cdac0"');
    await queryRunner.query('DROP INDEX "public"."idx_webauthn_challenge_expires"');
    await queryRunner.query('DROP TABLE "webauthn_challenge"');
    await queryRunner.query('DROP TABLE "user_password"');
    await queryRunner.query('DROP INDEX "public"."idx_sign_in_link_user"');
    await queryRunner.query('DROP INDEX "public"."idx_sign_in_link_expires"');
    await queryRunner.query('DROP TABLE "sign_in_link"');
    await queryRunner.query('DROP INDEX "public"."uq_passkey_credential_id"');
    await queryRunner.query('DROP INDEX "public"."idx_passkey_credential_user"');
    await queryRunner.query('DROP TABLE "passkey_credential"');
  }
}
