import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'registry.js');

function registry(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: mkdtempSync(join(tmpdir(), 'registry-cli-')),
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function waitReady(url: string): Promise<void> {
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`${url}/health/ready`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start');
}

describe('operator commands', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist', 'cli', 'commands', 'users.js'))) {
      spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT });
    }
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());

  it('creates an admin while the server is stopped, and issues it a session JWT', () => {
    const created = registry(['users', 'create', 'ops', '--admin', '--email', 'ops@example.test'], db.env);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^created admin ops \([0-9a-f-]{36}\)\n$/);
    const again = registry(['users', 'create', 'ops'], db.env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists/);
    const issued = registry(['sessions', 'issue', 'ops'], db.env);
    expect(issued.code).toBe(0);
    expect(issued.stdout.trim()).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(registry(['sessions', 'issue', 'nobody'], db.env).code).toBe(1);
    expect(registry(['users', 'create'], db.env).code).toBe(2);
    expect(registry(['users', 'frobnicate'], db.env).code).toBe(2);
  });

  it('works while the server runs, and the issued session is accepted by it', async () => {
    const port = 3700 + Math.floor(Math.random() * 200);
    const server = spawn(process.execPath, [BIN, 'serve'], {
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'silent', PORT: String(port), ...db.env },
      stdio: 'ignore',
    });
    const url = `http://127.0.0.1:${port}`;
    try {
      await waitReady(url);
      const created = registry(['users', 'create', 'live-admin', '--admin'], db.env);
      expect(created.code).toBe(0);
      const issued = registry(['sessions', 'issue', 'live-admin'], db.env);
      expect(issued.code).toBe(0);
      const me = await fetch(`${url}/api/auth/me`, { headers: { Authorization: `Bearer ${issued.stdout.trim()}` } });
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ login: 'live-admin', role: 'admin', instance: 'local' });
      expect(registry(['migrate', '--status'], db.env).stdout).toMatch(/all migrations applied/);
    } finally {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
  });
});
