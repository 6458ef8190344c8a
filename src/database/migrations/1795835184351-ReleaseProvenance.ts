import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Provenance verified at ingest (docs/publishing-from-ci.md#build-provenance-sigstore-bundles),
 * kept beside the signed list: its status and signer
 * per release, and the per-kind requirement. Releases recorded before carry their attestation
 * unchecked: `unverified` when they have one.
 */
export class ReleaseProvenance1795835184351 implements MigrationInterface {
  name = 'ReleaseProvenance1795835184351';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "kind" ADD "require_provenance" boolean NOT NULL DEFAULT false');
    await queryRunner.query('ALTER TABLE "release" ADD "provenance_status" character varying(10) NOT NULL DEFAULT \'absent\'');
    await queryRunner.query('ALTER TABLE "release" ADD "provenance_repository" text');
    await queryRunner.query('ALTER TABLE "release" ADD "provenance_workflow" text');
    await queryRunner.query('ALTER TABLE "release" ADD "provenance_ref" text');
    await queryRunner.query('ALTER TABLE "release" ADD "provenance_issuer" text');
    await queryRunner.query('ALTER TABLE "release" ADD "provenance_signed_at" TIMESTAMP WITH TIME ZONE');
    await queryRunner.query(
      'UPDATE "release" SET "provenance_status" = \'unverified\' WHERE "attestation" IS NOT NULL AND "attestation" <> \'null\'::jsonb',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "release" DROP COLUMN "provenance_signed_at"');
    await queryRunner.query('ALTER TABLE "release" DROP COLUMN "provenance_issuer"');
    await queryRunner.query('ALTER TABLE "release" DROP COLUMN "provenance_ref"');
    await queryRunner.query('ALTER TABLE "release" DROP COLUMN "provenance_workflow"');
    await queryRunner.query('ALTER TABLE "release" DROP COLUMN "provenance_repository"');
    await queryRunner.query('ALTER TABLE "release" DROP COLUMN "provenance_status"');
    await queryRunner.query('ALTER TABLE "kind" DROP COLUMN "require_provenance"');
  }
}
