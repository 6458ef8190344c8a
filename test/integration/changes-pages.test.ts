/**
 * The changes feed's page query against a real database (PGlite by default, PostgreSQL with
 * DATABASE_URL), on a log larger than one heap page run: every page's changes come in cursor order
 * (the query joins them as the range scan gives them, without sorting them again), the pages tile
 * the log exactly, and each change is the JSON stamped when it was logged.
 */
import type { DataSource } from 'typeorm';
import { ChangesRepository } from '../../src/news/changes/changes.repository';
import { openTestDatabase, type OpenTestDatabase } from '../support/test-database';

const LOGGED = 2_500;

let opened: OpenTestDatabase;
let dataSource: DataSource;
let changes: ChangesRepository;

beforeAll(async () => {
  opened = await openTestDatabase();
  dataSource = opened.dataSource;
  changes = new ChangesRepository(dataSource);
  // Written in several statements, with a gap of rolled-back seqs between two of them.
  for (let from = 1; from <= LOGGED; from += 500) {
    await dataSource.query(
      `INSERT INTO catalogue_event (txid, type, slug, version, data, created_at)
       SELECT g, 'release.published', 'plugin-' || g, '1.0.' || g, jsonb_build_object('kid', 'k' || g), timestamptz '2026-01-01T00:00:00Z' + g * interval '1 second'
       FROM generate_series($1::int, $2::int) g`,
      [from, from + 499],
    );
    if (from === 1001) {
      await dataSource
        .transaction(async (manager) => {
          await manager.query("INSERT INTO catalogue_event (txid, type, data) VALUES (0, 'keys.changed', '{}')");
          throw new Error('rolled back');
        })
        .catch(() => undefined);
    }
  }
});
afterAll(() => opened?.close());

describe('changes feed pages', () => {
  it.each([1, 7, 100, 1000])('tiles the whole log in cursor order with pages of %i', async (limit) => {
    const seen: number[] = [];
    let since = 0n;
    for (;;) {
      const page = await changes.page(since, limit);
      const items = JSON.parse(page.changes) as { cursor: string; slug: string; at: string }[];
      if (items.length === 0) {
        expect(page.more).toBe(false);
        break;
      }
      expect(items.length).toBeLessThanOrEqual(limit);
      const cursors = items.map((item) => Number(item.cursor));
      expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
      expect(page.last).toBe(items.at(-1)!.cursor);
      for (const item of items) {
        const n = Number(item.slug.slice('plugin-'.length));
        expect(item.at).toBe(new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString());
      }
      seen.push(...cursors);
      expect(page.more).toBe(seen.length < LOGGED);
      since = BigInt(page.last!);
    }
    expect(seen).toHaveLength(LOGGED);
    expect(new Set(seen).size).toBe(LOGGED);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });
});
