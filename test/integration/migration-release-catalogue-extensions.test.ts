/**
 * The ReleaseCatalogueExtensions migration on data written before it: each release gets the
 * extension values of its signed manifest, and a plugin whose catalogue fields came from the last
 * release ingested (a backport here) is moved onto its latest release.
 */
import { MIGRATIONS } from '../../src/database/migrations';
import { versionSortKey } from '../../src/catalogue/plugins/versions';
import { openMigrationTarget, type MigrationTarget } from '../support/migration-target';

describe('migration ReleaseCatalogueExtensions', () => {
  let target: MigrationTarget;
  beforeAll(async () => {
    target = await openMigrationTarget();
  });
  afterAll(() => target?.drop());

  it('backfills release extensions and moves listing fields onto the latest release', async () => {
    const old = await target.migrated(target.before('ReleaseCatalogueExtensions'));
    // As the old ingest left it: the backport 1.9.1 was published last, so the plugin shows it.
    const [plugin] = await old.query(
      `INSERT INTO plugin (slug, name, repo_url, repo_identity, description, tags, metadata, extensions)
       VALUES ('moved', 'moved', 'https://h/o/moved', 'h/o/moved', 'backport', '["old"]', '{"name":"moved","version":"1.9.1"}', '{"stars":1}') RETURNING id`,
    );
    const release = (version: string, manifest: Record<string, unknown>, canonical: Record<string, unknown>, extra = '') =>
      old.query(
        `INSERT INTO release (plugin_id, version, version_key, version_sort, prerelease, assets, manifest, manifest_raw, manifest_canonical, manifest_sha256, source${extra ? ', yanked_at' : ''})
         VALUES ($1, $2, $2, $3, $4, '[]', $5::jsonb, '', $6, $7, 'push'${extra ? ', now()' : ''})`,
        [
          plugin.id,
          version,
          versionSortKey(version),
          version.includes('-'),
          JSON.stringify(manifest),
          JSON.stringify(canonical),
          '0'.repeat(64),
        ],
      );
    const spec = (version: string, description: string) => ({ name: 'moved', version, description, tags: [description], kind: 'tool' });
    await release('3.0.0-beta.1', spec('3.0.0-beta.1', 'beta'), { ...spec('3.0.0-beta.1', 'beta'), stars: 3 });
    await release('2.1.0', spec('2.1.0', 'yanked'), { ...spec('2.1.0', 'yanked'), stars: 21 }, 'yanked');
    await release('2.0.0', spec('2.0.0', 'latest'), { ...spec('2.0.0', 'latest'), stars: 2, platforms: ['linux'] });
    await release('1.9.1', spec('1.9.1', 'backport'), spec('1.9.1', 'backport'));
    await old.destroy();

    const now = await target.migrated(MIGRATIONS.length);
    const releases = await now.query(`SELECT version, extensions FROM release ORDER BY version_sort DESC`);
    const [row] = await now.query(`SELECT name, description, tags, kind, metadata, extensions FROM plugin WHERE slug = 'moved'`);
    await now.destroy();
    expect(releases).toEqual([
      { version: '3.0.0-beta.1', extensions: { stars: 3 } },
      { version: '2.1.0', extensions: { stars: 21 } },
      { version: '2.0.0', extensions: { stars: 2, platforms: ['linux'] } },
      { version: '1.9.1', extensions: null },
    ]);
    expect(row).toEqual({
      name: 'moved',
      description: 'latest',
      tags: ['latest'],
      kind: 'tool',
      metadata: spec('2.0.0', 'latest'),
      extensions: { stars: 2, platforms: ['linux'] },
    });
  });
});
