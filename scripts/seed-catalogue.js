'use strict';
// `node scripts/seed-catalogue.js [--plugins 100000] [--releases 10] [--fresh]`: fills the
// database at DATABASE_URL, or without it the embedded one under DATA_DIR (joining the server
// that owns it, if one runs), migrated first, with a synthetic catalogue for benchmarks and EXPLAIN:
// plugins with names, descriptions, tags, kinds, extension fields and README text drawn from word
// lists, each with N releases carrying three platform assets and a README for the latest.
// Rows are made by INSERT ... SELECT over generate_series inside the server, 10,000 plugins a
// batch, so 100k plugins and 1M releases take about a minute. Each release also gets its
// `release.published` row in the changes feed's log (catalogue_event), oldest first, as if the
// releases had been published one by one (the log's trigger fires on audit rows, which the seed skips). The releases' signatures are
// placeholders: this data exists to be read fast, not verified.
// Refuses a database that already has plugins unless --fresh (which deletes them all).
const { Client } = require('pg');

const WORDS = [
  'markdown',
  'preview',
  'theme',
  'dark',
  'light',
  'git',
  'lint',
  'format',
  'snippet',
  'terminal',
  'python',
  'rust',
  'docker',
  'yaml',
  'json',
  'icons',
  'vim',
  'emacs',
  'todo',
  'spell',
  'debug',
  'test',
  'coverage',
  'graph',
  'table',
  'csv',
  'color',
  'font',
  'zoom',
  'sync',
  'cloud',
  'backup',
  'search',
  'regex',
  'diff',
  'merge',
  'branch',
  'deploy',
  'stats',
  'clock',
];
const KINDS = ['tool', 'theme', 'language', 'integration', 'widget'];
const CATEGORIES = ['Editors', 'Looks', 'Languages', 'Productivity', 'Testing', 'Data'];
/** The other words the description and search_readme templates below write (benchmarks search them too). */
const TEMPLATE_WORDS = [
  'a',
  'plugin',
  'for',
  'users',
  'with',
  'support',
  'install',
  'from',
  'the',
  'catalogue',
  'it',
  'adds',
  'commands',
  'and',
  'files',
];
/** The extension fields' values (see PLUGINS_SQL), for benchmarks' ext.* filters. */
const EXTENSION_VALUES = { stars: ['0', '1', '2', '3', '4', '5'], platforms: ['linux', 'mac'] };
/**
 * The registry's global extension-field declarations for the seeded values: enums, so the
 * catalogue counts them as facets (`GET /api/plugins?facets=1`).
 */
const EXTENSION_FIELDS = [
  { key: 'stars', type: 'number', enum: EXTENSION_VALUES.stars.map(Number) },
  { key: 'platforms', type: 'string[]', enum: EXTENSION_VALUES.platforms },
];
const DECLARE_FIELDS_SQL = `INSERT INTO app_setting (key, value) VALUES ('extension_fields.global', $1::jsonb) ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
/** Every release carries one asset for each. */
const ASSET_PLATFORMS = [
  ['linux', 'x64'],
  ['darwin', 'arm64'],
  ['win32', 'x64'],
];

function parseArgs(argv) {
  const options = { plugins: 100_000, releases: 10, fresh: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--fresh') options.fresh = true;
    else if (arg === '--plugins' || arg === '--releases') options[arg.slice(2)] = Number(argv[++i]);
    else throw new Error(`unknown argument ${arg}; usage: seed-catalogue [--plugins N] [--releases N] [--fresh]`);
  }
  if (!Number.isInteger(options.plugins) || options.plugins < 1) throw new Error('--plugins must be a positive integer');
  if (!Number.isInteger(options.releases) || options.releases < 1 || options.releases > 99) throw new Error('--releases must be 1 to 99');
  return options;
}

const sqlArray = (values) => `ARRAY[${values.map((v) => `'${v}'`).join(',')}]`;
// The i-th plugin's word k, spread so that combinations repeat rarely.
const word = (k) => `(${sqlArray(WORDS)})[1 + ((i * ${7 + k * 6} + ${k * 13}) % ${WORDS.length})]`;

const PLUGINS_SQL = `
INSERT INTO plugin (slug, name, repo_url, repo_identity, description, category, kind, tags, license, metadata, extensions,
                    latest_version, latest_release_at, featured, verified_at, downloads, created_at, search_readme)
SELECT slug, slug, 'https://github.com/seed/' || slug, 'github.com/seed/' || slug,
       'A ' || w2 || ' plugin for ' || w1 || ' users, with ' || w3 || ' support',
       (${sqlArray(CATEGORIES)})[1 + i % ${CATEGORIES.length}],
       (${sqlArray(KINDS)})[1 + i % ${KINDS.length}],
       jsonb_build_array(w1, w3), 'MIT',
       jsonb_build_object('name', slug, 'version', '1.' || ($3 - 1) || '.0', 'description', 'seeded'),
       jsonb_build_object('stars', i % 6, 'platforms', CASE WHEN i % 3 = 0 THEN jsonb_build_array('linux', 'mac') ELSE jsonb_build_array('linux') END),
       '1.' || ($3 - 1) || '.0', now() - make_interval(mins => i), i % 500 = 0, CASE WHEN i % 200 = 0 THEN now() END,
       (i * 37) % 100000, now() - make_interval(mins => i * 2),
       'Install ' || slug || ' from the catalogue. It adds ' || w2 || ' commands for ' || w4 || ' and ' || w1 || ' files.'
FROM (SELECT i, ${word(0)} AS w1, ${word(1)} AS w2, ${word(2)} AS w3, ${word(3)} AS w4,
             ${word(0)} || '-' || ${word(1)} || '-' || i AS slug
      FROM generate_series($1::int, $2::int) AS i) AS g`;

const RELEASES_SQL = `
INSERT INTO release (plugin_id, version, version_key, version_sort, prerelease, min_runtime_version, assets, integrity, manifest,
                     manifest_canonical, manifest_raw, manifest_sha256, source, created_at)
SELECT p.id, v.version, v.version, v.sort, false, CASE WHEN v.j = $2 - 1 AND p.kind = 'widget' THEN '>=3.0.0' END, a.assets,
       jsonb_build_object('jws', 'seeded.placeholder.signature', 'kid', 'seed', 'assets', '[]'::jsonb),
       jsonb_build_object('name', p.slug, 'version', v.version),
       '{"name":"' || p.slug || '","version":"' || v.version || '"}', 'name: ' || p.slug || E'\\nversion: ' || v.version,
       md5(p.slug || v.version) || md5(v.version || p.slug), 'push', p.latest_release_at - make_interval(days => $2 - v.j)
FROM plugin p
CROSS JOIN (SELECT j, '1.' || j || '.0' AS version, ($3::text[])[j + 1] AS sort FROM generate_series(0, $2 - 1) AS j) AS v
CROSS JOIN LATERAL (SELECT jsonb_agg(jsonb_build_object(
    'name', p.slug || '-' || v.version || '-' || t.os || '-' || t.arch || '.zip',
    'url', 'https://github.com/seed/' || p.slug || '/releases/download/' || v.version || '/' || p.slug || '-' || t.os || '-' || t.arch || '.zip',
    'size', 1048576, 'sha256', md5(p.slug || t.os) || md5(t.arch || p.slug), 'hashed', true,
    'contentType', 'application/zip', 'os', t.os, 'arch', t.arch)) AS assets
  FROM (VALUES ${ASSET_PLATFORMS.map(([os, arch]) => `('${os}', '${arch}')`).join(', ')}) AS t(os, arch)) AS a
WHERE p.id = ANY($1::uuid[])`;

const READMES_SQL = `
INSERT INTO release_readme (release_id, locale, position, html, render_version)
SELECT r.id, 'default', 0, '<h1>' || p.name || E'</h1>\\n<p>' || p.search_readme || E'</p>\\n<h2>Usage</h2>\\n<p>Open the command palette and run <code>' || p.slug || E'</code>.</p>\\n', $2
FROM plugin p JOIN release r ON r.plugin_id = p.id AND r.version = p.latest_version
WHERE p.id = ANY($1::uuid[])`;

const EVENTS_SQL = `
INSERT INTO catalogue_event (txid, type, slug, version, data, created_at)
SELECT pg_current_xact_id()::text::bigint, 'release.published', p.slug, r.version, jsonb_build_object('kid', 'seed'), r.created_at
FROM plugin p JOIN release r ON r.plugin_id = p.id
WHERE p.id = ANY($1::uuid[])
ORDER BY r.created_at, r.id`;

async function main() {
  require('./ts-register');
  const { loadConfig } = require('../src/config/config');
  const { openDatabase } = require('../src/database/database-handle');
  const { versionSortKey } = require('../src/catalogue/plugins/versions');
  // Written as the current renderer would leave them (the HTML is already clean): a seeded
  // catalogue must not start the server on re-rendering every README in the background.
  const { README_RENDER_VERSION } = require('../src/platform/markdown/render-readme');
  const options = parseArgs(process.argv.slice(2));
  const config = loadConfig({ ...process.env, NODE_ENV: 'test' });
  // Embedded: held open while seeding, since this process may be the one hosting the engine.
  const database = await openDatabase(config, { embeddedMode: 'own-or-join', migrate: true });
  const client = new Client(config.databaseUrl ? { connectionString: config.databaseUrl } : database.embedded.target);
  try {
    await client.connect();
    const [{ count }] = (await client.query('SELECT count(*)::int AS count FROM plugin')).rows;
    if (count > 0 && !options.fresh) throw new Error(`the database already has ${count} plugins; pass --fresh to replace them`);
    if (options.fresh) await client.query('TRUNCATE plugin, release, release_readme, plugin_owner, catalogue_event CASCADE');
    const sorts = Array.from({ length: options.releases }, (_, j) => versionSortKey(`1.${j}.0`));
    const started = Date.now();
    const BATCH = 10_000;
    for (let from = 1; from <= options.plugins; from += BATCH) {
      const to = Math.min(options.plugins, from + BATCH - 1);
      await client.query('BEGIN');
      const ids = (await client.query(`${PLUGINS_SQL} RETURNING id`, [from, to, options.releases])).rows.map((r) => r.id);
      await client.query(RELEASES_SQL, [ids, options.releases, sorts]);
      await client.query(READMES_SQL, [ids, README_RENDER_VERSION]);
      await client.query(EVENTS_SQL, [ids]);
      await client.query('COMMIT');
      process.stdout.write(`\r${to} plugins, ${to * options.releases} releases (${Math.round((Date.now() - started) / 1000)} s)`);
    }
    await client.query(DECLARE_FIELDS_SQL, [JSON.stringify(EXTENSION_FIELDS)]);
    await client.query('ANALYZE plugin');
    await client.query('ANALYZE release');
    await client.query('ANALYZE release_readme');
    await client.query('ANALYZE catalogue_event');
    process.stdout.write(
      `\nseeded ${options.plugins} plugins and ${options.plugins * options.releases} releases in ${Math.round((Date.now() - started) / 1000)} s\n`,
    );
  } finally {
    await client.end().catch(() => undefined);
    await database.close();
  }
}

module.exports = { WORDS, KINDS, CATEGORIES, TEMPLATE_WORDS, EXTENSION_VALUES, EXTENSION_FIELDS, DECLARE_FIELDS_SQL, ASSET_PLATFORMS };

if (require.main === module) {
  main().catch((error) => {
    console.error(error.message);
    process.exitCode = 1;
  });
}
