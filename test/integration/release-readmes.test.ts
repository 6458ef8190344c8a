/**
 * README storage against a real database (PGlite by default, PostgreSQL with DATABASE_URL): one
 * release_readme row per (release, locale), read back one locale at a time by the resolution
 * rule, removed with the release; and the migration that moves the old readme_html jsonb there.
 */
import { QueryFailedError, type DataSource } from 'typeorm';
import { ReleaseReadmes1795418635895 } from '../../src/database/migrations/1795418635895-ReleaseReadmes';
import { type ReadmeRendering, ReleaseReadmesRepository } from '../../src/catalogue/plugins/release-readmes.repository';
import { openTestDatabase, type OpenTestDatabase } from '../support/test-database';

let opened: OpenTestDatabase;
let dataSource: DataSource;
let counter = 0;

beforeAll(async () => {
  opened = await openTestDatabase();
  dataSource = opened.dataSource;
});
afterAll(() => opened?.close());

type Query = (sql: string, parameters?: unknown[]) => Promise<any>;
const viaPool: Query = (sql, parameters) => dataSource.query(sql, parameters);

async function newPlugin(query: Query = viaPool): Promise<string> {
  const slug = `readme-store-${counter++}`;
  const [{ id }] = await query(`INSERT INTO plugin (slug, name, repo_url, repo_identity) VALUES ($1, $1, $2, $2) RETURNING id`, [
    slug,
    `https://forge.test/acme/${slug}`,
  ]);
  return id;
}

async function newRelease(pluginId: string, version: string, query: Query = viaPool): Promise<string> {
  const [{ id }] = await query(
    `INSERT INTO release (plugin_id, version, version_key, version_sort, assets, manifest, manifest_raw, manifest_canonical, manifest_sha256, source)
     VALUES ($1, $2, $2, $2, '[]', '{}', '', '{}', $3, 'push') RETURNING id`,
    [pluginId, version, '0'.repeat(64)],
  );
  return id;
}

/** READMEs by locale as stored, from HTML alone. */
const rendered = (htmlByLocale: Record<string, string>): Record<string, ReadmeRendering> =>
  Object.fromEntries(
    Object.entries(htmlByLocale).map(([locale, html]) => [
      locale,
      { html, markdown: `# ${locale}`, context: { kind: 'none' }, renderVersion: 1 },
    ]),
  );

describe('ReleaseReadmesRepository', () => {
  const readmes = () => new ReleaseReadmesRepository(dataSource);

  it('stores one row per locale in the given order and reads one locale by the resolution rule', async () => {
    const release = await newRelease(await newPlugin(), '1.0.0');
    await dataSource.transaction((manager) =>
      readmes().insertForRelease(release, rendered({ 'pt-BR': '<p>olá</p>', de: '<p>hallo</p>', default: '<p>hello</p>' }), manager),
    );

    expect(await readmes().locales(release)).toEqual(['pt-BR', 'de', 'default']);
    expect(await readmes().findExact(release, 'de')).toEqual({ locale: 'de', html: '<p>hallo</p>' });
    expect(await readmes().findExact(release, 'fr')).toBeNull();
    expect(await readmes().findForLocale(release, 'pt-PT')).toEqual({ locale: 'pt-BR', html: '<p>olá</p>' });
    expect(await readmes().findForLocale(release, 'DE-ch')).toEqual({ locale: 'de', html: '<p>hallo</p>' });
    expect(await readmes().findForLocale(release, 'ja')).toEqual({ locale: 'default', html: '<p>hello</p>' });
    expect(await readmes().findForLocale(release, undefined)).toEqual({ locale: 'default', html: '<p>hello</p>' });
  });

  it('falls back to the first locale when there is neither English nor default, and is null with no README', async () => {
    const plugin = await newPlugin();
    const withLocales = await newRelease(plugin, '1.0.0');
    const without = await newRelease(plugin, '1.1.0');
    await dataSource.transaction((manager) =>
      readmes().insertForRelease(withLocales, rendered({ fr: '<p>fr</p>', de: '<p>de</p>' }), manager),
    );
    await dataSource.transaction((manager) => readmes().insertForRelease(without, rendered({}), manager));
    expect(await readmes().findForLocale(withLocales, 'ja')).toEqual({ locale: 'fr', html: '<p>fr</p>' });
    expect(await readmes().locales(without)).toEqual([]);
    expect(await readmes().findForLocale(without, 'de')).toBeNull();
  });

  it('holds one README per release and locale', async () => {
    const release = await newRelease(await newPlugin(), '1.0.0');
    await dataSource.transaction((manager) => readmes().insertForRelease(release, rendered({ de: 'a' }), manager));
    await expect(dataSource.transaction((manager) => readmes().insertForRelease(release, rendered({ de: 'b' }), manager))).rejects.toThrow(
      QueryFailedError,
    );
    expect(await readmes().findExact(release, 'de')).toEqual({ locale: 'de', html: 'a' });
  });

  it('goes with its release', async () => {
    const release = await newRelease(await newPlugin(), '1.0.0');
    await dataSource.transaction((manager) => readmes().insertForRelease(release, rendered({ de: 'a', default: 'b' }), manager));
    await dataSource.query('DELETE FROM release WHERE id = $1', [release]);
    expect(Number((await dataSource.query('SELECT count(*)::int AS n FROM release_readme WHERE release_id = $1', [release]))[0].n)).toBe(0);
  });
});

describe('ReleaseReadmesRepository: re-rendering', () => {
  const readmes = () => new ReleaseReadmesRepository(dataSource);
  const versionOf = async (release: string, locale: string) =>
    (await dataSource.query('SELECT render_version, html FROM release_readme WHERE release_id = $1 AND locale = $2', [release, locale]))[0];

  it('pages through READMEs older than a version by key, keys only, and stores a re-render only over what was read', async () => {
    const release = await newRelease(await newPlugin(), '1.0.0');
    await dataSource.transaction((manager) =>
      readmes().insertForRelease(release, rendered({ de: '<p>alt</p>', en: '<p>old</p>', fr: '<p>vieux</p>' }), manager),
    );
    await dataSource.query(`UPDATE release_readme SET render_version = 0 WHERE release_id = $1 AND locale <> 'fr'`, [release]);

    const mine = <K extends { releaseId: string }>(keys: K[]) => keys.filter((key) => key.releaseId === release);
    const first = mine(await readmes().findStaleKeys(1, null, 1000));
    expect(first).toEqual([
      { releaseId: release, locale: 'de' },
      { releaseId: release, locale: 'en' },
    ]);
    expect(mine(await readmes().findStaleKeys(1, first[0], 1000))).toEqual([first[1]]);
    expect(mine(await readmes().findStaleKeys(1, first[1], 1000))).toEqual([]);

    const stale = (await readmes().findStale(first[1], 1))!;
    expect(stale).toMatchObject({ releaseId: release, locale: 'en', html: '<p>old</p>', markdown: '# en', context: { kind: 'none' } });
    // Changed since it was read (a refresh, another instance): not overwritten.
    await dataSource.query(`UPDATE release_readme SET html = '<p>changed</p>' WHERE release_id = $1 AND locale = 'en'`, [release]);
    expect(await readmes().storeRerendered(stale, '<p>new</p>', 1)).toBe(false);
    expect(await versionOf(release, 'en')).toEqual({ render_version: 0, html: '<p>changed</p>' });
    // Read again, it is written once: a second writer of the same version finds nothing to replace.
    const again = (await readmes().findStale(first[1], 1))!;
    expect(await readmes().storeRerendered(again, '<p>new</p>', 1)).toBe(true);
    expect(await readmes().storeRerendered(again, '<p>newer</p>', 1)).toBe(false);
    expect(await versionOf(release, 'en')).toEqual({ render_version: 1, html: '<p>new</p>' });
    expect(await readmes().findStale(first[1], 1)).toBeNull();
  });

  it('replaces the READMEs of a release, keeping the stored one of a locale that did not render', async () => {
    const release = await newRelease(await newPlugin(), '1.0.0');
    await dataSource.transaction((manager) =>
      readmes().insertForRelease(release, rendered({ de: '<p>de</p>', en: '<p>en</p>', fr: '<p>fr</p>' }), manager),
    );
    await dataSource.transaction((manager) =>
      readmes().replaceForRelease(release, ['en', 'de', 'pt'], rendered({ en: '<p>en 2</p>', pt: '<p>pt</p>' }), manager),
    );
    expect(await readmes().locales(release)).toEqual(['en', 'de', 'pt']);
    expect(await readmes().htmlByLocale(release)).toEqual({ en: '<p>en 2</p>', de: '<p>de</p>', pt: '<p>pt</p>' });
  });
});

describe('migration ReleaseReadmes', () => {
  it('moves readme_html entries into rows, drops the column, and moves them back on the way down', async () => {
    const migration = new ReleaseReadmes1795418635895();
    // The embedded database serves few connections: everything here goes through the runner's.
    const runner = dataSource.createQueryRunner();
    const query: Query = (sql, parameters) => runner.query(sql, parameters);
    try {
      await migration.down(runner);
      const plugin = await newPlugin(query);
      const localized = await newRelease(plugin, '2.0.0', query);
      const single = await newRelease(plugin, '2.1.0', query);
      const none = await newRelease(plugin, '2.2.0', query);
      await query(`UPDATE release SET readme_html = $2 WHERE id = $1`, [
        localized,
        JSON.stringify({ de: '<h1>Hallo</h1>', 'pt-BR': '<h1>Olá</h1>' }),
      ]);
      await query(`UPDATE release SET readme_html = $2 WHERE id = $1`, [single, JSON.stringify({ default: '<h1>Hi</h1>' })]);

      await migration.up(runner);
      const rows = await query(
        `SELECT release_id, locale, html FROM release_readme WHERE release_id = ANY($1) ORDER BY locale COLLATE "C"`,
        [[localized, single, none]],
      );
      expect(rows).toEqual([
        { release_id: localized, locale: 'de', html: '<h1>Hallo</h1>' },
        { release_id: single, locale: 'default', html: '<h1>Hi</h1>' },
        { release_id: localized, locale: 'pt-BR', html: '<h1>Olá</h1>' },
      ]);
      expect(await new ReleaseReadmesRepository(dataSource).locales(localized, runner.manager)).toHaveLength(2);
      const column = await query(`SELECT 1 FROM information_schema.columns WHERE table_name = 'release' AND column_name = 'readme_html'`);
      expect(column).toEqual([]);

      await migration.down(runner);
      const back = await query(`SELECT id, readme_html FROM release WHERE id = ANY($1)`, [[localized, single, none]]);
      expect(Object.fromEntries(back.map((row: { id: string; readme_html: unknown }) => [row.id, row.readme_html]))).toEqual({
        [localized]: { de: '<h1>Hallo</h1>', 'pt-BR': '<h1>Olá</h1>' },
        [single]: { default: '<h1>Hi</h1>' },
        [none]: {},
      });
      await migration.up(runner);
    } finally {
      await runner.release();
    }
  });
});
