/**
 * A database that holds releases written before the ReleaseRecords migration comes through it
 * with nothing lost: sort keys computed, the hashed manifest bytes recovered from the raw text
 * (extension fields included), and the attestation moved from every signed asset to the release.
 */
import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../src/database/migrations';
import { openMigrationTarget, type MigrationTarget } from '../support/migration-target';
import { canonicalJson } from '../../src/lib/integrity';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('migration ReleaseRecords on releases written before it', () => {
  let database: MigrationTarget;

  beforeAll(async () => {
    database = await openMigrationTarget();
  });
  afterAll(() => database?.drop());

  const migrated = (upTo: number): Promise<DataSource> => database.migrated(upTo);

  it('keeps every release verifiable and its data in place', async () => {
    const before = MIGRATIONS.findIndex((m) => m.name.startsWith('ReleaseRecords'));
    expect(before).toBeGreaterThan(0);
    const old = await migrated(before);
    const raw = 'name: legacy\nversion: 1.2.0-rc.1\nstars: 5\n';
    const hashed = canonicalJson({ name: 'legacy', version: '1.2.0-rc.1', stars: 5 });
    const attestation = { bundle: 'x' };
    const [plugin] = await old.query(
      `INSERT INTO plugin (slug, name, repo_url, repo_identity) VALUES ('legacy', 'legacy', 'https://h/o/r', 'h/o/r') RETURNING id`,
    );
    await old.query(
      `INSERT INTO release (plugin_id, version, version_key, prerelease, assets, integrity, manifest, manifest_raw, manifest_sha256, readme_html, source)
       VALUES ($1, '1.2.0-rc.1', '1.2.0-rc.1', true, '[]', $2::jsonb, $3::jsonb, $4, $5, '{}', 'push')`,
      [
        plugin.id,
        JSON.stringify({
          jws: 'h.p.s',
          kid: 'k1',
          assets: [{ name: 'a', sha256: 'ab', size: 1, contentType: 'x', arch: 'x64', os: 'linux', attestation }],
        }),
        JSON.stringify({ name: 'legacy', version: '1.2.0-rc.1' }),
        raw,
        sha256(hashed),
      ],
    );
    await old.destroy();

    const now = await migrated(MIGRATIONS.length);
    const [row] = await now.query(
      `SELECT version_sort, manifest_canonical, manifest_sha256, attestation, integrity, downloads FROM release`,
    );
    await now.destroy();
    expect(row.manifest_canonical).toBe(hashed);
    expect(sha256(row.manifest_canonical)).toBe(row.manifest_sha256);
    expect(row.attestation).toEqual(attestation);
    expect(row.integrity.assets).toEqual([{ name: 'a', sha256: 'ab', size: 1, contentType: 'x', arch: 'x64', os: 'linux' }]);
    expect(row.integrity.jws).toBe('h.p.s');
    expect(row.version_sort).toMatch(/^011012010-/);
    expect(String(row.downloads)).toBe('0');
  });
});
