/**
 * An empty database (a fresh one on the PostgreSQL server when the suite runs there, else an
 * embedded PGlite directory) migrated step by step: for tests of what a migration does to rows
 * written before it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions, type DatabaseTarget } from '../../src/database/data-source-options';
import { openEmbeddedDatabase } from '../../src/database/embedded/embedded-postgres';
import { MIGRATIONS } from '../../src/database/migrations';

export interface MigrationTarget {
  /** The database with the first `count` migrations applied (call again to apply more). */
  migrated(count: number): Promise<DataSource>;
  /** How many migrations come before the one whose class name starts with `name`. */
  before(name: string): number;
  drop(): Promise<void>;
}

export async function openMigrationTarget(): Promise<MigrationTarget> {
  let target: DatabaseTarget;
  let drop: () => Promise<void>;
  const adminUrl = process.env.REGISTRY_TEST_ADMIN_URL;
  if (adminUrl) {
    const name = `registry_mig_${randomBytes(6).toString('hex')}`;
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    target = { url: url.toString() };
    drop = async () => {
      const c = new Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'registry-migration-'));
    const embedded = await openEmbeddedDatabase({ dataDir, mode: 'own' });
    target = { embedded: embedded.target };
    drop = async () => {
      await embedded.stop();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }
  return {
    async migrated(count) {
      const dataSource = new DataSource({ ...dataSourceOptions(target), migrations: MIGRATIONS.slice(0, count) });
      await dataSource.initialize();
      await dataSource.runMigrations({ transaction: 'each' });
      return dataSource;
    },
    before(name) {
      const index = MIGRATIONS.findIndex((m) => m.name.startsWith(name));
      if (index < 0) throw new Error(`no migration ${name}`);
      return index;
    },
    drop,
  };
}
