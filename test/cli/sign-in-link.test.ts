/**
 * `registry users sign-in-link <login>` and `registry users set-password <login>`
 * (docs/administering.md#sign-in-without-a-forge), run as the operator runs them (the built CLI in
 * a child process), then used on the server.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { freePort } from '../support/free-port';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { startTestApp } from '../support/test-app';

const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'registry.js');

function registry(args: string[], env: Record<string, string>, input?: string) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: mkdtempSync(join(tmpdir(), 'registry-cli-')),
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    input: input ?? '',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('registry users sign-in-link and set-password', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist', 'cli', 'commands', 'user-credentials.js'))) {
      spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT });
    }
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());

  it('prints a one-time link that signs in once, and sets a password from stdin', async () => {
    const port = await freePort();
    const env = { ...db.env, BASE_URL: `http://127.0.0.1:${port}` };
    expect(registry(['users', 'create', 'erin'], env).code).toBe(0);

    const printed = registry(['users', 'sign-in-link', 'erin'], env);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/auth/link\\?token=[A-Za-z0-9_-]{43}\\n$`));
    expect(printed.stderr).toMatch(/^one-time sign-in link for erin: works once, until \d{4}-\d{2}-\d{2}T/);
    const missing = registry(['users', 'sign-in-link', 'nobody'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe("registry users sign-in-link: no user 'nobody'\n");
    expect(registry(['users', 'sign-in-link'], env).code).toBe(2);

    const short = registry(['users', 'set-password', 'erin'], env, 'short\n');
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('must be at least 10 characters long');
    const set = registry(['users', 'set-password', 'erin'], env, 'erin has a long password\n');
    expect(set.stderr).toBe('');
    expect(set).toMatchObject({ code: 0, stdout: 'password set for erin\n' });

    const app = await startTestApp({ PORT: String(port), BASE_URL: env.BASE_URL }, db);
    try {
      const printedUrl = new URL(printed.stdout.trim());
      const path = printedUrl.pathname + printedUrl.search;
      // Following the link shows a page with a button; only the button's post uses the link.
      const shown = await request(app.url).get(path).expect(200);
      expect(shown.headers['set-cookie']).toBeUndefined();
      expect(shown.text).toContain('<form id="link-form" method="post" action="/auth/link">');
      const use = () =>
        request(app.url)
          .post('/auth/link')
          .set('Origin', env.BASE_URL)
          .type('form')
          .send({ token: printedUrl.searchParams.get('token')! });
      const first = await use().expect(303);
      expect(first.headers.location).toBe('/account');
      const cookie = (first.headers['set-cookie'][0] as string).split(';')[0];
      await request(app.url).get('/api/auth/me').set('Cookie', cookie).expect(200);
      await request(app.url).get(path).expect(200);
      const second = await use().expect(303);
      expect(second.headers.location).toBe('/sign-in/link?error=used');
      await request(app.url).post('/api/auth/sign-in/password').send({ login: 'erin', password: 'erin has a long password' }).expect(200);
      const audit = await app.database.dataSource.query(
        `SELECT action, details FROM audit_entry WHERE action IN ('sign_in_link.issue', 'password.set') ORDER BY id`,
      );
      // Both were written within the same instant; the order of their rows is not the point.
      expect(audit.map((row: { action: string; details: { via?: string } }) => [row.action, row.details.via]).sort()).toEqual([
        ['password.set', 'cli'],
        ['sign_in_link.issue', 'cli'],
      ]);
    } finally {
      await app.close();
    }
  });
});
