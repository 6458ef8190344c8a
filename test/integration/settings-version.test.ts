/**
 * The settings version against a real database (PGlite by default, PostgreSQL with DATABASE_URL):
 * every statement that writes app_setting moves it inside the writing transaction, whoever
 * writes, and the migration that adds it goes down and up again.
 */
import type { DataSource } from 'typeorm';
import { SettingsVersion1795421652956 } from '../../src/database/migrations/1795421652956-SettingsVersion';
import { KindBumpsSettingsVersion1795830000000 } from '../../src/database/migrations/1795830000000-KindBumpsSettingsVersion';
import { SettingsRepository } from '../../src/platform/settings/settings.repository';
import { openTestDatabase, type OpenTestDatabase } from '../support/test-database';

let opened: OpenTestDatabase;
let dataSource: DataSource;
let settings: SettingsRepository;

beforeAll(async () => {
  opened = await openTestDatabase();
  dataSource = opened.dataSource;
  settings = new SettingsRepository(dataSource);
});
afterAll(() => opened?.close());

const version = async () => BigInt(await settings.version());

describe('settings_version', () => {
  it('moves with every write to app_setting, through the repository or plain SQL', async () => {
    // An upsert is an INSERT and an UPDATE statement, so it may move the version twice: readers
    // only compare versions for equality.
    const seen = [await version()];
    const moved = async () => {
      const now = await version();
      expect(now).toBeGreaterThan(seen[seen.length - 1]);
      seen.push(now);
    };
    await settings.set('site.name', 'One');
    await moved();
    await settings.set('site.name', 'Two');
    await moved();
    await dataSource.query(`UPDATE app_setting SET value = '"Three"' WHERE key = 'site.name'`);
    await moved();
    await dataSource.query(`DELETE FROM app_setting WHERE key = 'site.name'`);
    await moved();
    const loaded = await settings.load();
    expect(loaded.version).toBe(String(seen[seen.length - 1]));
    expect(loaded.values.has('site.name')).toBe(false);
  });

  it('does not move for a write that is rolled back', async () => {
    const start = await version();
    await expect(
      dataSource.transaction(async (manager) => {
        await settings.set('site.name', 'Never', manager);
        expect(BigInt(await settings.version(manager))).toBeGreaterThan(start);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await version()).toBe(start);
    expect(await settings.get('site.name')).toBeUndefined();
  });

  it('comes with its migration, and goes with it', async () => {
    const migration = new SettingsVersion1795421652956();
    // A later migration's trigger on `kind` calls the same function: it goes first and comes back last.
    const kindTrigger = new KindBumpsSettingsVersion1795830000000();
    // The embedded database serves few connections: everything here goes through the runner's.
    const runner = dataSource.createQueryRunner();
    try {
      await kindTrigger.down(runner);
      await migration.down(runner);
      await runner.query(`INSERT INTO app_setting (key, value) VALUES ('site.name', '"Down"')`);
      expect(await runner.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'settings_version'`)).toEqual([]);
      await migration.up(runner);
      await kindTrigger.up(runner);
      await runner.query(`DELETE FROM app_setting WHERE key = 'site.name'`);
      expect(await runner.query('SELECT id, version FROM settings_version')).toEqual([{ id: 1, version: '1' }]);
      expect(await runner.query(`SELECT key FROM app_setting WHERE key = 'site.name'`)).toEqual([]);
      await expect(runner.query('INSERT INTO settings_version (id, version) VALUES (2, 0)')).rejects.toThrow(
        /ck_settings_version_single_row/,
      );
    } finally {
      await runner.release();
    }
  });
});
