import { createHash } from 'node:crypto';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { canonicalJson } from '../../lib/integrity/canonical-json';
import { parseManifestText } from '../../lib/manifest/parse-text';
import { versionSortKey } from '../../catalogue/plugins/versions';

/**
 * The bytes that were hashed into a stored release's manifest_sha256: the canonical form of the
 * parsed manifest as pushed (extension fields included), which the raw text still holds.
 */
function hashedManifest(raw: string, stored: unknown, sha256: string): string {
  const parsed = parseManifestText(raw);
  const candidates = parsed.ok ? [canonicalJson(parsed.value), canonicalJson(stored)] : [canonicalJson(stored)];
  return candidates.find((text) => createHash('sha256').update(text, 'utf8').digest('hex') === sha256) ?? candidates[0];
}

export class ReleaseRecords1795417760320 implements MigrationInterface {
  name = 'ReleaseRecords1795417760320';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "plugin" ADD "latest_prerelease" character varying(40)');
    await queryRunner.query('ALTER TABLE "plugin" ADD "repo_verified" boolean NOT NULL DEFAULT false');
    await queryRunner.query('ALTER TABLE "release" ADD "version_sort" character varying(200) COLLATE "C"');
    await queryRunner.query('ALTER TABLE "release" ADD "manifest_canonical" text');
    await queryRunner.query('ALTER TABLE "release" ADD "attestation" jsonb');
    // Existing releases: sort keys and hashed manifest bytes are computed here, and the
    // attestation every signed asset carried moves to the release, stored once.
    const rows: { id: string; version_key: string; manifest_raw: string; manifest: unknown; manifest_sha256: string }[] =
      await queryRunner.query('SELECT id, version_key, manifest_raw, manifest, manifest_sha256 FROM "release"');
    for (const row of rows) {
      await queryRunner.query('UPDATE "release" SET "version_sort" = $2, "manifest_canonical" = $3 WHERE id = $1', [
        row.id,
        versionSortKey(row.version_key),
        hashedManifest(row.manifest_raw, row.manifest, row.manifest_sha256),
      ]);
    }
    await queryRunner.query(`UPDATE "release" SET
      "attestation" = NULLIF("integrity"->'assets'->0->'attestation', 'null'::jsonb),
      "integrity" = jsonb_set("integrity", '{assets}', (SELECT COALESCE(jsonb_agg(a - 'attestation'), '[]'::jsonb) FROM jsonb_array_elements("integrity"->'assets') a))
      WHERE "integrity" IS NOT NULL`);
    await queryRunner.query('ALTER TABLE "release" ALTER COLUMN "version_sort" SET NOT NULL');
    await queryRunner.query('ALTER TABLE "release" ALTER COLUMN "manifest_canonical" SET NOT NULL');
    await queryRunner.query('ALTER TABLE "release" ADD "downloads" bigint NOT NULL DEFAULT \'0\'');
    await queryRunner.query('CREATE INDEX "idx_release_plugin_version_sort" ON "release"  ("plugin_id", "version_sort") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."idx_release_plugin_version_sort"');
    await queryRunner.query('ALTER TABLE "release" DROP COLUMN "downloads"');
    await queryRunner.query('ALTER TABLE "release" DROP COLUMN "attestation"');
    await queryRunner.query('ALTER TABLE "release" DROP COLUMN "manifest_canonical"');
    await queryRunner.query('ALTER TABLE "release" DROP COLUMN "version_sort"');
    await queryRunner.query('ALTER TABLE "plugin" DROP COLUMN "repo_verified"');
    await queryRunner.query('ALTER TABLE "plugin" DROP COLUMN "latest_prerelease"');
  }
}
