import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rotation that never strands a release: a displaced key drains (its releases are re-signed with
 * the current key) before it leaves the key set. The state check is widened by hand: the schema
 * diff compares checks by name only.
 */
export class SigningKeyDrain1795421375111 implements MigrationInterface {
  name = 'SigningKeyDrain1795421375111';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "release_resign_failure" ("release_id" uuid NOT NULL, "kid" character varying(64) NOT NULL, "reason" character varying(300) NOT NULL, "failed_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_6fc250ec1e48aae409bfb97d005" PRIMARY KEY ("release_id", "kid"))',
    );
    await queryRunner.query('ALTER TABLE "signing_key" ADD "draining_at" TIMESTAMP WITH TIME ZONE');
    await queryRunner.query('ALTER TABLE "signing_key" ADD "drained_at" TIMESTAMP WITH TIME ZONE');
    await queryRunner.query('ALTER TABLE "signing_key" ADD "resigned_count" integer NOT NULL DEFAULT \'0\'');
    await queryRunner.query('CREATE UNIQUE INDEX "uq_signing_key_draining" ON "signing_key"  ("state") WHERE "state" = \'draining\'');
    await queryRunner.query('ALTER TABLE "signing_key" ADD CONSTRAINT "chk_signing_key_resigned_count" CHECK ("resigned_count" >= 0)');
    await queryRunner.query('ALTER TABLE "signing_key" DROP CONSTRAINT "chk_signing_key_state"');
    await queryRunner.query(
      "ALTER TABLE \"signing_key\" ADD CONSTRAINT \"chk_signing_key_state\" CHECK (\"state\" IN ('current', 'previous', 'draining', 'retired'))",
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // The old schema has no draining state: a draining key retires (as the old rotation did).
    await queryRunner.query(
      'UPDATE "signing_key" SET "state" = \'retired\', "retired_at" = now(), "private_key_ciphertext" = NULL, "private_key_iv" = NULL, "private_key_tag" = NULL WHERE "state" = \'draining\'',
    );
    await queryRunner.query('ALTER TABLE "signing_key" DROP CONSTRAINT "chk_signing_key_state"');
    await queryRunner.query(
      'ALTER TABLE "signing_key" ADD CONSTRAINT "chk_signing_key_state" CHECK ("state" IN (\'current\', \'previous\', \'retired\'))',
    );
    await queryRunner.query('ALTER TABLE "signing_key" DROP CONSTRAINT "chk_signing_key_resigned_count"');
    await queryRunner.query('DROP INDEX "public"."uq_signing_key_draining"');
    await queryRunner.query('ALTER TABLE "signing_key" DROP COLUMN "resigned_count"');
    await queryRunner.query('ALTER TABLE "signing_key" DROP COLUMN "drained_at"');
    await queryRunner.query('ALTER TABLE "signing_key" DROP COLUMN "draining_at"');
    await queryRunner.query('DROP TABLE "release_resign_failure"');
  }
}
