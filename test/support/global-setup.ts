import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { loadConfig } from '../../src/config/config';
import { openDatabase } from '../../src/database/database-handle';

/**
 * Migrates one template database per run; every test file then gets a fresh copy of it
 * (`createTestDatabase`): a cloned database on a real server, a copied data directory on PGlite.
 */
export default async function globalSetup(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const adminUrl = withoutCommitFlush(serverUrl);
    const name = `registry_template_${process.pid}`;
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: url.toString() });
    const database = await openDatabase(config, { embeddedMode: 'own', migrate: true });
    await database.close();
    process.env.REGISTRY_TEST_ADMIN_URL = adminUrl;
    process.env.REGISTRY_TEST_TEMPLATE_DB = name;
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'registry-template-'));
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir });
    const database = await openDatabase(config, { embeddedMode: 'own', migrate: true });
    await database.close();
    process.env.REGISTRY_TEST_TEMPLATE_DIR = dataDir;
  }
}

/**
 * The test databases' connections commit without waiting for the WAL flush (synchronous_commit off,
 * per session, through the URL's `options`): a commit is as visible and as atomic as before, and
 * only a crash of the PostgreSQL server itself (which no test causes) could lose the last ones. On
 * a busy disk each flush cost ~4 ms (0.7 ms without), and every test commits many times.
 * A URL that sets its own options keeps them.
 */
function withoutCommitFlush(serverUrl: string): string {
  const url = new URL(serverUrl);
  if (!url.searchParams.has('options')) url.searchParams.set('options', '-c synchronous_commit=off');
  return url.toString();
}
