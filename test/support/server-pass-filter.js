'use strict';
// Jest `--filter` for CI's second pass, on PostgreSQL + Redis (.ci/run). That pass exists for what
// can behave differently there, so it keeps:
//   - every suite under test/ (integration, e2e, browser, cli: they open a database or Redis, or
//     run the server or the CLI against one), but the embedded engine's own suites
//     (test/integration/embedded-*.test.ts that never reach the test support or DATABASE_URL, and
//     the e2e suites whose header says `@embedded-engine-only`: their servers get no DATABASE_URL):
//     they start PGlite whichever pass runs them, so a second run repeats the first; nor the
//     documentation's link check (test/docs/), which reads markdown files and nothing else; nor
//     the browser suites (test/browser/): they judge pages, scripts and markup in Chromium, which
//     the server renders the same from either database, while the flows behind the pages (sign-in,
//     publishing, subscriptions, the catalogue's reads) run on PostgreSQL in the e2e and
//     integration suites; and they are the longest suites of all (CI's 20 minutes);
//   - every unit spec beside the code (src/**/*.spec.ts) whose text reaches for a database, Redis,
//     the environment, a child process or the test support (which boots apps on the pass's database).
// It leaves out the other unit specs. Code under src/ reads no environment (only src/main.ts does;
// the lint rule on process.env), so such a spec is handed everything it uses and already ran exactly
// as it would here, in the embedded pass. The test is on the spec's own text and errs towards keeping.
const { readFileSync } = require('node:fs');
const { join, relative, sep } = require('node:path');

const ROOT = join(__dirname, '..', '..');
const REACHES = [
  /test\/support\//,
  /\bopenDatabase\b|\bcreateApp\b|\bDataSource\b|\bcreateTestingModule\b/,
  /['"](typeorm|pg|ioredis|@electric-sql\/[\w-]+)['"]/,
  /\bRedis\b|\bPGlite\b/,
  /DATABASE_URL|REDIS_URL|process\.env/,
  /child_process/,
];

function keep(path) {
  const file = relative(ROOT, path).split(sep).join('/');
  if (/^test\/integration\/embedded-[\w-]+\.test\.ts$/.test(file))
    return /test\/support\/|DATABASE_URL|REDIS_URL/.test(readFileSync(path, 'utf8'));
  if (file.startsWith('test/docs/') || file.startsWith('test/browser/')) return false;
  if (file.startsWith('test/e2e/') && /@embedded-engine-only\b/.test(readFileSync(path, 'utf8'))) return false;
  if (!file.startsWith('src/')) return true;
  const text = readFileSync(path, 'utf8');
  return REACHES.some((pattern) => pattern.test(text));
}

module.exports = async function serverPassFilter(testPaths) {
  const filtered = testPaths.filter(keep);
  const left = testPaths.length - filtered.length;
  process.stderr.write(
    `server pass: ${filtered.length} of ${testPaths.length} suites; ${left} ran in the embedded pass only (unit specs that reach no database, Redis, environment or child process, the embedded engine's own suites, the documentation's link check and the browser suites)\n`,
  );
  return { filtered };
};
