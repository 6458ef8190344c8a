import type { MigrationInterface, QueryRunner } from 'typeorm';

export class SigningKeys1795256564852 implements MigrationInterface {
  name = 'SigningKeys1795256564852';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "signing_key" ("kid" character varying(64) NOT NULL, "state" character varying(16) NOT NULL, "public_x" character varying(64) NOT NULL, "private_key_ciphertext" bytea, "private_key_iv" bytea, "private_key_tag" bytea, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "demoted_at" TIMESTAMP WITH TIME ZONE, "retired_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "chk_signing_key_private_key" CHECK ("state" = \'retired\' OR ("private_key_ciphertext" IS NOT NULL AND "private_key_iv" IS NOT NULL AND "private_key_tag" IS NOT NULL)), CONSTRAINT "chk_signing_key_state" CHECK ("state" IN (\'current\', \'previous\', \'retired\')), CONSTRAINT "PK_00d7e305393ab903d6eb06c11f9" PRIMARY KEY ("kid"))',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "uq_signing_key_previous" ON "signing_key"  ("state") WHERE "state" = \'previous\'');
    await queryRunner.query('CREATE UNIQUE INDEX "uq_signing_key_current" ON "signing_key"  ("state") WHERE "state" = \'current\'');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."uq_signing_key_current"');
    await queryRunner.query('DROP INDEX "public"."uq_signing_key_previous"');
    await queryRunner.query('DROP TABLE "signing_key"');
  }
}
