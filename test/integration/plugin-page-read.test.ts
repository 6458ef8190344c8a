/**
 * The plugin page's one-value read (PluginPageRepository.page) against a real database (PGlite by
 * default, PostgreSQL with DATABASE_URL): its timestamps are cut to the millisecond exactly as the
 * driver cuts a timestamp column, so a detail and the list item of the same plugin agree, and its
 * releases, owners and README locales come back whole and in order.
 */
import type { DataSource } from 'typeorm';
import { PluginPageRepository } from '../../src/catalogue/plugins/plugin-page.repository';
import { ReleaseReadmesRepository } from '../../src/catalogue/plugins/release-readmes.repository';
import { PLUGIN_ROW_COLUMNS, pluginOfRow, type PluginRow } from '../../src/catalogue/plugins/plugin-row';
import { openTestDatabase, type OpenTestDatabase } from '../support/test-database';

let opened: OpenTestDatabase;
let dataSource: DataSource;

beforeAll(async () => {
  opened = await openTestDatabase();
  dataSource = opened.dataSource;
});
afterAll(() => opened?.close());

async function release(pluginId: string, version: string, createdAt: string, yankedAt: string | null): Promise<string> {
  const [{ id }] = await dataSource.query(
    `INSERT INTO release (plugin_id, version, version_key, version_sort, assets, manifest, manifest_raw, manifest_canonical, manifest_sha256, source, created_at, yanked_at, yank_reason, downloads)
     VALUES ($1, $2, $2, $2, '[]', $3, '', '{}', $4, 'push', $5, $6, $7, 12) RETURNING id`,
    [pluginId, version, JSON.stringify({ name: 'timed', version }), '0'.repeat(64), createdAt, yankedAt, yankedAt ? 'broken' : null],
  );
  return id;
}

describe('PluginPageRepository.page', () => {
  it('cuts every timestamp to the millisecond as the driver does, and reads releases, owners and READMEs whole', async () => {
    // Microseconds that round up but must be cut, and one just below a whole second.
    const [{ id }] = await dataSource.query(
      `INSERT INTO plugin (slug, name, repo_url, repo_identity, created_at, updated_at, verified_at, downloads, tags, extensions)
       VALUES ('timed', 'timed', 'https://forge.test/acme/timed', 'https://forge.test/acme/timed', '2026-01-02 03:04:05.123999+00', '2026-03-04 05:06:07.999999+00',
         '2026-05-06 07:08:09.000500+00', 9007199254740991, '["a", "b"]', '{"stars": 3}') RETURNING id`,
    );
    const older = await release(id, '1.0.0', '2026-01-02 03:04:05.000999+00', null);
    const newer = await release(id, '1.1.0', '2026-02-02 03:04:05.555555+00', '2026-02-03 00:00:00.999999+00');
    const readme = (html: string) => ({ html, markdown: '', context: { kind: 'none' as const }, renderVersion: 1 });
    await dataSource.transaction((manager) =>
      new ReleaseReadmesRepository(dataSource).insertForRelease(
        older,
        { de: readme('<p>hallo</p>'), default: readme('<p>hi</p>') },
        manager,
      ),
    );
    const [{ id: userId }] = await dataSource.query(
      `INSERT INTO user_account (instance, provider_user_id, login) VALUES ('github.com', '42', 'owner') RETURNING id`,
    );
    await dataSource.query(`INSERT INTO plugin_owner (plugin_id, user_id) VALUES ($1, $2)`, [id, userId]);

    const page = await new PluginPageRepository(dataSource).page('timed');
    const [row] = await dataSource.query<PluginRow[]>(`SELECT ${PLUGIN_ROW_COLUMNS} FROM plugin p WHERE p.slug = 'timed'`);
    expect(page?.plugin).toEqual(pluginOfRow(row));
    expect(page?.plugin.createdAt.toISOString()).toBe('2026-01-02T03:04:05.123Z');
    expect(page?.plugin.updatedAt.toISOString()).toBe('2026-03-04T05:06:07.999Z');
    expect(page?.plugin.downloads).toBe('9007199254740991');

    const rows = await dataSource.query(`SELECT id, created_at, yanked_at FROM release WHERE plugin_id = $1 ORDER BY version_sort DESC`, [
      id,
    ]);
    expect(
      page?.releases.map((r) => [r.id, r.version, r.createdAt.getTime(), r.yankedAt?.getTime() ?? null, r.yankReason, r.downloads]),
    ).toEqual([
      [newer, '1.1.0', rows[0].created_at.getTime(), rows[0].yanked_at.getTime(), 'broken', '12'],
      [older, '1.0.0', rows[1].created_at.getTime(), null, null, '12'],
    ]);
    // The shown release is the highest live one: 1.0.0, with its READMEs in their stored order.
    expect(page).toMatchObject({
      shownId: older,
      shownManifest: { name: 'timed', version: '1.0.0' },
      readmeLocales: ['de', 'default'],
      firstReadmeHtml: '<p>hallo</p>',
    });
    expect(page?.owners).toEqual([{ login: 'owner', instance: 'github.com' }]);
    expect(await new PluginPageRepository(dataSource).page('nobody')).toBeNull();
  });
});
