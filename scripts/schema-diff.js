'use strict';
// Prints the SQL that would bring a freshly migrated database in line with the entities.
// `--check` exits 1 when there is any (an entity drifted from the committed migrations);
// `--generate Name` writes that SQL as a new migration file instead.
require('./ts-register');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { loadConfig } = require('../src/config/config');
const { openDatabase } = require('../src/database/database-handle');

async function main() {
  const args = process.argv.slice(2);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-schema-'));
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, NODE_ENV: 'test' });
  let database;
  let dropDatabase = null;
  if (config.databaseUrl) {
    const { Client } = require('pg');
    const name = `registry_schema_${process.pid}`;
    const admin = new Client({ connectionString: config.databaseUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(config.databaseUrl);
    url.pathname = `/${name}`;
    database = await openDatabase({ ...config, databaseUrl: url.toString() }, { embeddedMode: 'own', migrate: true });
    dropDatabase = async () => {
      const c = new Client({ connectionString: config.databaseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name}`);
      await c.end();
    };
  } else {
    database = await openDatabase(config, { embeddedMode: 'own', migrate: true });
  }
  try {
    const sql = await database.dataSource.driver.createSchemaBuilder().log();
    const up = sql.upQueries.map((q) => q.query);
    const down = sql.downQueries.map((q) => q.query).reverse();
    if (args[0] === '--generate') {
      const name = args[1];
      if (!name || !/^[A-Z][A-Za-z0-9]+$/.test(name)) throw new Error('usage: schema-diff --generate PascalCaseName');
      const stamp = Date.now();
      const file = path.join(__dirname, '..', 'src', 'database', 'migrations', `${stamp}-${name}.ts`);
      const lines = (qs) => qs.map((q) => `    await queryRunner.query(${JSON.stringify(q)});`).join('\n');
      fs.writeFileSync(
        file,
        `import type { MigrationInterface, QueryRunner } from 'typeorm';\n\nexport class ${name}${stamp} implements MigrationInterface {\n  name = '${name}${stamp}';\n\n  async up(queryRunner: QueryRunner): Promise<void> {\n${lines(up)}\n  }\n\n  async down(queryRunner: QueryRunner): Promise<void> {\n${lines(down)}\n  }\n}\n`,
      );
      console.log(`wrote ${path.relative(process.cwd(), file)} (${up.length} statements); add it to src/database/migrations/index.ts`);
    } else {
      for (const q of up) console.log(q + ';');
      if (args[0] === '--check') {
        console.log(up.length ? `schema drift: ${up.length} statement(s) missing from migrations` : 'no schema drift');
        process.exitCode = up.length ? 1 : 0;
      }
    }
  } finally {
    await database.close();
    if (dropDatabase) await dropDatabase();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 2;
});
