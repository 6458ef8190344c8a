/**
 * The ChangesFeedStoredJson migration on a log written before it: every change already logged gets
 * the very text the page query wrote for it before (so a follower's pages read the same across the
 * upgrade), and every change logged after it is stamped on insert.
 */
import { MIGRATIONS } from '../../src/database/migrations';
import { openMigrationTarget, type MigrationTarget } from '../support/migration-target';

/** The page query's per-change JSON before the migration, verbatim. */
const OLD_CHANGE_JSON = `SELECT e.seq::text AS seq, row_to_json((SELECT r FROM (SELECT e.seq::text AS cursor, e.type, e.slug, e.version, e.data,
  to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at) r))::text AS change FROM catalogue_event e ORDER BY e.seq`;

describe('migration ChangesFeedStoredJson on a log written before it', () => {
  let database: MigrationTarget;

  beforeAll(async () => {
    database = await openMigrationTarget();
  });
  afterAll(() => database?.drop());

  it('stores each logged change as the page query wrote it, and stamps every later one on insert', async () => {
    const before = MIGRATIONS.findIndex((m) => m.name.startsWith('ChangesFeedStoredJson'));
    expect(before).toBeGreaterThan(0);
    const old = await database.migrated(before);
    await old.query(`INSERT INTO catalogue_event (txid, type, slug, version, data, created_at) VALUES
      (1, 'release.published', 'alpha', '1.0.0', '{"kid": "k1"}', '2026-03-04T05:06:07.089Z'),
      (2, 'release.yanked', 'alpha', '1.0.0', '{"reason": "a \\"quoted\\" reason ✓"}', '2026-03-04T05:06:08Z'),
      (3, 'plugin.deleted', 'beta', NULL, '{}', '2026-12-31T23:59:59.999+02:00'),
      (4, 'keys.changed', NULL, NULL, '{"reason": "rotate"}', '2026-01-01T00:00:00Z')`);
    const written = await old.query(OLD_CHANGE_JSON);
    await old.destroy();

    const now = await database.migrated(MIGRATIONS.length);
    try {
      const stored = await now.query('SELECT seq::text AS seq, change FROM catalogue_event ORDER BY seq');
      expect(stored).toEqual(written);
      expect(JSON.parse(stored[2].change)).toEqual({
        cursor: stored[2].seq,
        type: 'plugin.deleted',
        slug: 'beta',
        version: null,
        data: {},
        at: '2026-12-31T21:59:59.999Z',
      });

      await now.query(
        `INSERT INTO catalogue_event (txid, type, slug, version, data, created_at) VALUES (5, 'release.published', 'gamma', '2.0.0', '{"kid": "k2"}', '2026-05-06T07:08:09.010Z')`,
      );
      const [fresh] = await now.query('SELECT seq::text AS seq, change FROM catalogue_event ORDER BY seq DESC LIMIT 1');
      expect(JSON.parse(fresh.change)).toEqual({
        cursor: fresh.seq,
        type: 'release.published',
        slug: 'gamma',
        version: '2.0.0',
        data: { kid: 'k2' },
        at: '2026-05-06T07:08:09.010Z',
      });
    } finally {
      await now.destroy();
    }
  });
});
