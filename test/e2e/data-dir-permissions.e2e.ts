/**
 * DATA_DIR is owner-only: the embedded database's files (PGlite creates them 0666 on its own), the
 * lock, the socket directory and the generated secrets. A real `registry serve` on a fresh
 * directory, and on one an older version left world-writable, which is tightened at start. The
 * children run the embedded engine whatever database the suite uses (they get no DATABASE_URL).
 *
 * @embedded-engine-only: CI's PostgreSQL pass leaves it out (test/support/server-pass-filter.js).
 */
import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import request from 'supertest';
import { listening, registryCli, spawnServe, stopServe, type CompiledServer } from '../support/compiled-server';

const INIT_TOKEN = 'permissions-test-bootstrap-token';

/** Every entry under `root` (itself included) whose mode grants more than owner-only. */
function looserThanOwnerOnly(root: string): string[] {
  const found: string[] = [];
  const visit = (path: string) => {
    const stats = lstatSync(path);
    const mode = stats.mode & 0o777;
    const allowed = stats.isDirectory() ? 0o700 : 0o600;
    if (mode & ~allowed) found.push(`${relative(root, path) || '.'} ${mode.toString(8)}`);
    if (stats.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
  };
  visit(root);
  return found;
}

function countEntries(root: string): number {
  return 1 + (lstatSync(root).isDirectory() ? readdirSync(root).reduce((sum, entry) => sum + countEntries(join(root, entry)), 0) : 0);
}

function loosen(path: string): void {
  const stats = lstatSync(path);
  chmodSync(path, stats.isDirectory() ? 0o777 : 0o666);
  if (stats.isDirectory()) for (const entry of readdirSync(path)) loosen(join(path, entry));
}

describe('DATA_DIR is owner-only', () => {
  let parent: string;
  let dataDir: string;
  const servers: CompiledServer[] = [];

  async function serve(): Promise<{ server: CompiledServer; url: string }> {
    const server = spawnServe({ NODE_ENV: 'test', LOG_LEVEL: 'info', PORT: '0', DATA_DIR: dataDir, INIT_TOKEN });
    servers.push(server);
    return { server, url: await listening(server) };
  }

  /** Writes that reach the database's files: the first admin through the wizard, then one more user from the shell. */
  async function writeSomething(url: string, login: string): Promise<void> {
    const first = await request(url).post('/api/init/admin').set('Authorization', `Bearer ${INIT_TOKEN}`).send({ login: 'first-admin' });
    expect([201, 410]).toContain(first.status);
    const created = await registryCli(['users', 'create', login], { NODE_ENV: 'test', DATA_DIR: dataDir });
    expect(created).toMatchObject({ code: 0 });
  }

  beforeAll(() => {
    parent = mkdtempSync(join(tmpdir(), 'registry-permissions-'));
    dataDir = join(parent, 'data');
  });

  afterAll(async () => {
    for (const server of servers) await stopServe(server);
    rmSync(parent, { recursive: true, force: true });
  }, 60_000);

  it('creates a fresh DATA_DIR with directories 0700 and files 0600, secrets included', async () => {
    const { server, url } = await serve();
    let whileRunning: string[];
    try {
      await writeSomething(url, 'first-user');
      whileRunning = looserThanOwnerOnly(dataDir);
    } finally {
      expect(await stopServe(server)).toBe(0);
    }
    expect(whileRunning).toEqual([]);

    expect(readdirSync(dataDir).sort()).toEqual(expect.arrayContaining(['key-encryption-key', 'pg', 'session-secret']));
    // The engine's files are there (a cluster is about a thousand), and none is open to others.
    expect(countEntries(join(dataDir, 'pg'))).toBeGreaterThan(500);
    expect(lstatSync(dataDir).mode & 0o777).toBe(0o700);
    expect(looserThanOwnerOnly(dataDir)).toEqual([]);
  }, 120_000);

  it('tightens a world-writable DATA_DIR at start, and files the engine creates later stay owner-only', async () => {
    loosen(dataDir);
    expect(looserThanOwnerOnly(dataDir).length).toBeGreaterThan(500);

    const { server, url } = await serve();
    let atStart: string[];
    try {
      atStart = looserThanOwnerOnly(dataDir);
      await writeSomething(url, 'second-user');
    } finally {
      expect(await stopServe(server)).toBe(0);
    }
    expect(atStart).toEqual([]);
    expect(looserThanOwnerOnly(dataDir)).toEqual([]);
  }, 120_000);
});
