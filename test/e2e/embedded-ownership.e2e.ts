/**
 * Who owns an embedded DATA_DIR, between real `registry serve` processes: a second server on a
 * directory a live one owns gives up with a message that names the owner and exits non-zero;
 * after the owner is killed with SIGKILL (its lock file left behind) a new server takes over.
 * These run the embedded engine whatever database the suite uses (the children get no
 * DATABASE_URL).
 *
 * @embedded-engine-only: CI's PostgreSQL pass leaves it out (test/support/server-pass-filter.js).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listening, spawnServe, statusOf, stopServe, type CompiledServer } from '../support/compiled-server';

describe('registry serve and the embedded DATA_DIR it owns', () => {
  let dataDir: string;
  const servers: CompiledServer[] = [];
  const serve = () => {
    const server = spawnServe({ NODE_ENV: 'test', LOG_LEVEL: 'info', PORT: '0', DATA_DIR: dataDir });
    servers.push(server);
    return server;
  };

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'registry-ownership-'));
  });

  afterAll(async () => {
    for (const server of servers) await stopServe(server);
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('refuses a second server with a message naming the owner, and a SIGKILLed owner is taken over', async () => {
    const first = serve();
    const firstUrl = await listening(first);
    const lock = join(dataDir, 'pglite.lock');
    expect(readFileSync(lock, 'utf8').trim()).toBe(String(first.child.pid));

    const second = serve();
    const code = await second.exited;
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    expect(second.output()).toContain(
      `the embedded database in ${dataDir} is in use by process ${first.child.pid}: stop it or choose another DATA_DIR`,
    );
    expect(await statusOf(`${firstUrl}/health/ready`)).toBe(200);

    first.child.kill('SIGKILL');
    await first.exited;
    // The lock names a process that no longer exists.
    expect(readFileSync(lock, 'utf8').trim()).toBe(String(first.child.pid));

    const third = serve();
    const thirdUrl = await listening(third);
    expect(await statusOf(`${thirdUrl}/health/ready`)).toBe(200);
    expect(readFileSync(lock, 'utf8').trim()).toBe(String(third.child.pid));

    expect(await stopServe(third)).toBe(0);
    expect(existsSync(lock)).toBe(false);
  }, 180_000);
});
