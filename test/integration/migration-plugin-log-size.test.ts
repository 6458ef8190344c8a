/**
 * The FreshnessFromPluginLogSize migration on a log written before it: statements signed before it
 * named the whole log's size, and clients remember the largest they saw, so every plugin's log
 * position starts at the whole log's size (never below a statement served before); the
 * statements' table goes.
 */
import { MIGRATIONS } from '../../src/database/migrations';
import { encodeLogEntry, leafHash, type LogEntry } from '../../src/lib/transparency';
import { openMigrationTarget, type MigrationTarget } from '../support/migration-target';

describe('migration FreshnessFromPluginLogSize on a log written before it', () => {
  let database: MigrationTarget;

  beforeAll(async () => {
    database = await openMigrationTarget();
  });
  afterAll(() => database?.drop());

  it('starts every plugin at the whole log size, no smaller than any statement served before', async () => {
    const before = MIGRATIONS.findIndex((m) => m.name.startsWith('FreshnessFromPluginLogSize'));
    expect(before).toBeGreaterThan(0);
    const old = await database.migrated(before);
    for (const slug of ['alpha', 'beta', 'quiet']) {
      await old.query(`INSERT INTO plugin (slug, name, repo_url, repo_identity) VALUES ($1, $1, $2, $3)`, [
        slug,
        `https://h/o/${slug}`,
        `h/o/${slug}`,
      ]);
    }
    const jws = { kid: 'k1', jws_sha256: 'a'.repeat(64) };
    const entries: LogEntry[] = [
      { type: 'release', slug: 'alpha', version: '1.0.0', ...jws },
      { type: 'release', slug: 'beta', version: '1.0.0', ...jws },
      { type: 'yank', slug: 'alpha', version: '1.0.0' },
      { type: 'keys', keys_sha256: 'b'.repeat(64) },
      { type: 'unyank', slug: 'alpha', version: '1.0.0' },
      { type: 'resign', slug: 'beta', version: '1.0.0', ...jws },
      { type: 'release', slug: 'gone', version: '1.0.0', ...jws },
    ];
    for (const [index, entry] of entries.entries()) {
      const bytes = encodeLogEntry(entry);
      await old.query(`INSERT INTO transparency_leaf ("index", entry, leaf_hash) VALUES ($1, $2, $3)`, [
        index,
        Buffer.from(bytes),
        Buffer.from(leafHash(bytes)),
      ]);
    }
    // The last statement served before the upgrade named the whole log then.
    await old.query(
      `INSERT INTO freshness_statement (slug, platform, version, tree_size, jws, issued_at, expires_at) VALUES ('beta', 'all', '1.0.0', 7, 'x', now(), now() + interval '1 day')`,
    );
    await old.destroy();

    const now = await database.migrated(MIGRATIONS.length);
    const plugins = await now.query(`SELECT slug, log_size::int AS log_size FROM plugin ORDER BY slug`);
    const [{ tables }] = await now.query(`SELECT count(*)::int AS tables FROM pg_class WHERE relname = 'freshness_statement'`);
    await now.destroy();
    expect(plugins).toEqual([
      { slug: 'alpha', log_size: 7 },
      { slug: 'beta', log_size: 7 },
      { slug: 'quiet', log_size: 7 },
    ]);
    expect(tables).toBe(0);
  });
});
