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
  const adminUrl = process.env.DATABASE_URL;
  if (adminUrl) {
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
