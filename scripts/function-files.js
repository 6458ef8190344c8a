'use strict';
// Writes each database function's file (src/database/trigger-functions.ts) from a migrated
// PostgreSQL database: `DATABASE_URL=postgres://... node scripts/function-files.js`. For after a
// migration that changed a function or a trigger: PostgreSQL prints a trigger's WHEN clause as it
// reparsed it, which may differ from what the migration wrote, and the files hold what it prints.
// `node scripts/function-files.js --hashes` prints each file's SHA-256, for the migration that
// applies it (applyFunctionFiles), and needs no database.
require('./ts-register');
const fs = require('node:fs');
const path = require('node:path');
const { Client } = require('pg');
const { DATABASE_FUNCTIONS_SQL, FUNCTION_FILES, functionFileFrom, functionFileHash } = require('../src/database/trigger-functions');

async function main() {
  if (process.argv.includes('--hashes')) {
    for (const name of Object.keys(FUNCTION_FILES)) process.stdout.write(`${name}: '${functionFileHash(name)}',\n`);
    return;
  }
  if (!process.env.DATABASE_URL) throw new Error('set DATABASE_URL to a migrated PostgreSQL database');
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    for (const { name, definition, triggers } of (await client.query(DATABASE_FUNCTIONS_SQL)).rows) {
      const owner = FUNCTION_FILES[name];
      if (!owner)
        throw new Error(`${name}: not in FUNCTION_FILES (src/database/trigger-functions.ts): add it with the feature that owns it`);
      const file = path.join(__dirname, '..', 'src', owner, 'sql', `${name}.sql`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, functionFileFrom(definition, triggers));
      process.stdout.write(`wrote ${path.relative(process.cwd(), file)}\n`);
    }
  } finally {
    await client.end();
  }
}

main().catch((error) => {
  process.stderr.write(`function-files: ${error.message}\n`);
  process.exitCode = 1;
});
