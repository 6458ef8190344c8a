/**
 * The embedded engine's lock file (DATA_DIR/pglite.lock): a stale one never stops a start, a
 * live owner is named. A container restarted after SIGKILL often gives the new process the old
 * PID (PID 1), so a lock naming this very process is stale unless this process holds the engine.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { EmbeddedDatabaseInUseError, openEmbeddedDatabase, type EmbeddedDatabase } from '../../src/database/embedded/embedded-postgres';

describe('the embedded database lock', () => {
  const dirs: string[] = [];
  const opened: EmbeddedDatabase[] = [];
  const emptyDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'registry-lock-'));
    dirs.push(dir);
    return dir;
  };
  /**
   * A DATA_DIR holding a cluster, as a crash or a restart leaves it, and no lock or socket: a copy
   * of one created once in beforeAll (creating a cluster takes the embedded engine many seconds).
   */
  let cluster: string;
  const freshDir = () => {
    const dir = emptyDir();
    cpSync(join(cluster, 'pg'), join(dir, 'pg'), { recursive: true });
    return dir;
  };
  const open = async (dataDir: string, waitMs = 1_000) => {
    const database = await openEmbeddedDatabase({ dataDir, mode: 'own', waitMs });
    opened.push(database);
    return database;
  };
  const answers = async (database: EmbeddedDatabase) => {
    const client = new Client(database.target);
    await client.connect();
    try {
      return (await client.query('SELECT 1 AS one')).rows[0].one as number;
    } finally {
      await client.end();
    }
  };
  const lockOf = (dataDir: string) => join(dataDir, 'pglite.lock');

  beforeAll(async () => {
    // Opening an empty DATA_DIR creates the cluster, and the lock is gone once it stops.
    cluster = emptyDir();
    const database = await openEmbeddedDatabase({ dataDir: cluster, mode: 'own' });
    await database.stop();
    expect(existsSync(lockOf(cluster))).toBe(false);
  });

  afterAll(async () => {
    for (const database of opened) await database.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('takes over a lock naming this process when this process does not hold the engine', async () => {
    const dataDir = freshDir();
    writeFileSync(lockOf(dataDir), String(process.pid));
    const database = await open(dataDir);
    expect(database.owner).toBe(true);
    expect(await answers(database)).toBe(1);
    expect(readFileSync(lockOf(dataDir), 'utf8')).toBe(String(process.pid));
    await database.stop();
    expect(existsSync(lockOf(dataDir))).toBe(false);
  });

  it('takes over a lock naming a process that is gone', async () => {
    const dataDir = freshDir();
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(lockOf(dataDir), gone.stdout.trim());
    const database = await open(dataDir);
    expect(await answers(database)).toBe(1);
    expect(readFileSync(lockOf(dataDir), 'utf8')).toBe(String(process.pid));
  });

  it('takes over an empty lock left by a crash between creating and writing it', async () => {
    const dataDir = freshDir();
    writeFileSync(lockOf(dataDir), '');
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(lockOf(dataDir), longAgo, longAgo);
    const database = await open(dataDir);
    expect(await answers(database)).toBe(1);
  });

  it('refuses a second owner of files this process already serves, at once', async () => {
    const dataDir = freshDir();
    const first = await open(dataDir);
    await expect(openEmbeddedDatabase({ dataDir, mode: 'own', waitMs: 60_000 })).rejects.toThrow(/this process already owns/);
    expect(await answers(first)).toBe(1);
  });

  it('names a live owner after waiting, and leaves its lock alone', async () => {
    const dataDir = freshDir();
    const owner = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      writeFileSync(lockOf(dataDir), String(owner.pid));
      const attempt = openEmbeddedDatabase({ dataDir, mode: 'own', waitMs: 500 });
      await expect(attempt).rejects.toThrow(EmbeddedDatabaseInUseError);
      await expect(attempt).rejects.toThrow(
        `the embedded database in ${dataDir} is in use by process ${owner.pid}: stop it or choose another DATA_DIR`,
      );
      expect(readFileSync(lockOf(dataDir), 'utf8')).toBe(String(owner.pid));
    } finally {
      owner.kill('SIGKILL');
    }
  });
});
