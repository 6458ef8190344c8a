/**
 * The ReleaseProvenance migration on releases recorded before it: their attestations were passed
 * through unchecked, so a release with one is `unverified` and one without is `absent`; no signer.
 */
import { MIGRATIONS } from '../../src/database/migrations';
import { openMigrationTarget, type MigrationTarget } from '../support/migration-target';

describe('migration ReleaseProvenance on releases recorded before it', () => {
  let database: MigrationTarget;

  beforeAll(async () => {
    database = await openMigrationTarget();
  });
  afterAll(() => database?.drop());

  it('marks releases with an attestation unverified and the others absent', async () => {
    const before = MIGRATIONS.findIndex((m) => m.name.startsWith('ReleaseProvenance'));
    expect(before).toBeGreaterThan(0);
    const old = await database.migrated(before);
    const [plugin] = await old.query(
      `INSERT INTO plugin (slug, name, repo_url, repo_identity) VALUES ('old', 'old', 'https://h/o/r', 'h/o/r') RETURNING id`,
    );
    const insert = (version: string, attestation: string | null) =>
      old.query(
        `INSERT INTO release (plugin_id, version, version_key, version_sort, assets, manifest, manifest_canonical, manifest_raw, manifest_sha256, source, attestation)
         VALUES ($1, $2, $2, $2, '[]', '{}', '{}', '', $3, 'push', $4::jsonb)`,
        [plugin.id, version, 'a'.repeat(64), attestation],
      );
    await insert('1.0.0', JSON.stringify({ mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json' }));
    await insert('1.1.0', null);
    await insert('1.2.0', 'null');
    await old.destroy();

    const now = await database.migrated(MIGRATIONS.length);
    const rows = await now.query(
      `SELECT version, provenance_status, provenance_repository, provenance_signed_at FROM release ORDER BY version`,
    );
    const [kind] = await now.query(
      `SELECT column_default FROM information_schema.columns WHERE table_name = 'kind' AND column_name = 'require_provenance'`,
    );
    await now.destroy();
    expect(rows).toEqual([
      { version: '1.0.0', provenance_status: 'unverified', provenance_repository: null, provenance_signed_at: null },
      { version: '1.1.0', provenance_status: 'absent', provenance_repository: null, provenance_signed_at: null },
      { version: '1.2.0', provenance_status: 'absent', provenance_repository: null, provenance_signed_at: null },
    ]);
    expect(kind.column_default).toBe('false');
  });
});
