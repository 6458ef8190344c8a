import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/config';
import { openDatabase } from '../../src/database/database-handle';

export interface TestDatabase {
  /** Environment variables that point the app at this database. */
  env: Record<string, string>;
  /** `postgres` on a real server, `embedded` on PGlite. */
  kind: 'postgres' | 'embedded';
  /** Where a raw `pg` client reaches the database (for tests that must look underneath). */
  dataDir: string;
  drop(): Promise<void>;
}

/** A fresh, migrated database for one test file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'registry-test-'));
  const adminUrl = process.env.REGISTRY_TEST_ADMIN_URL;
  const template = process.env.REGISTRY_TEST_TEMPLATE_DB;
  if (adminUrl && template) {
    const name = `registry_t_${randomBytes(6).toString('hex')}`;
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return {
      env: { DATABASE_URL: url.toString(), DATA_DIR: dataDir, ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}) },
      kind: 'postgres',
      dataDir,
      async drop() {
        const c = new Client({ connectionString: adminUrl });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const templateDir = process.env.REGISTRY_TEST_TEMPLATE_DIR;
  if (!templateDir) throw new Error('the Jest global setup did not prepare a template database');
  cpSync(join(templateDir, 'pg'), join(dataDir, 'pg'), { recursive: true });
  return {
    env: { DATA_DIR: dataDir },
    kind: 'embedded',
    dataDir,
    async drop() {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A fresh migrated database opened as the server opens it, for tests of repositories and queries. */
export interface OpenTestDatabase {
  dataSource: DataSource;
  kind: TestDatabase['kind'];
  close(): Promise<void>;
}

export async function openTestDatabase(): Promise<OpenTestDatabase> {
  const db = await createTestDatabase();
  try {
    const handle = await openDatabase(loadConfig({ NODE_ENV: 'test', ...db.env }), { embeddedMode: 'own', migrate: false });
    return {
      dataSource: handle.dataSource,
      kind: db.kind,
      async close() {
        await handle.close();
        await db.drop();
      },
    };
  } catch (error) {
    await db.drop();
    throw error;
  }
}
