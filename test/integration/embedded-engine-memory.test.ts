/**
 * The embedded engine's memory settings (engine-settings.js): a new cluster is created in a child
 * process (its initdb peak goes back to the system), a creation killed midway leaves nothing the
 * next start trips on, and the engine runs with the shared_buffers and connection slots asked for.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { openEmbeddedDatabase, type EmbeddedDatabase } from '../../src/database/embedded/embedded-postgres';

const VM_HWM_KIB = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]);

describe('the embedded engine’s memory', () => {
  let dataDir: string;
  let database: EmbeddedDatabase | null = null;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'registry-embedded-memory-'));
  });
  afterEach(async () => {
    await database?.stop();
    database = null;
    rmSync(dataDir, { recursive: true, force: true });
  });

  const settings = async (names: string[]) => {
    const c = new Client(database!.target);
    await c.connect();
    try {
      const result = await c.query('SELECT name, setting, unit FROM pg_settings WHERE name = ANY($1) ORDER BY name', [names]);
      return Object.fromEntries(result.rows.map((row) => [row.name, `${row.setting}${row.unit ? ` ${row.unit}` : ''}`]));
    } finally {
      await c.end();
    }
  };

  it('creates a new cluster in a child process, past what a creation killed midway left, with 16 MiB of shared buffers and 10 connection slots', async () => {
    const leftover = join(dataDir, 'pg.init-99999');
    mkdirSync(leftover, { recursive: true });
    writeFileSync(join(leftover, 'PG_VERSION'), '17\n');
    const peakBefore = VM_HWM_KIB();
    database = await openEmbeddedDatabase({ dataDir, mode: 'own' });
    expect(existsSync(join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
    expect(readdirSync(dataDir).filter((name) => name.startsWith('pg.init-'))).toEqual([]);
    // initdb in this process lifted its peak by ~500 MiB; in a child process it is not ours.
    expect(VM_HWM_KIB() - peakBefore).toBeLessThan(300 * 1024);
    expect(await settings(['max_connections', 'shared_buffers', 'maintenance_work_mem'])).toEqual({
      maintenance_work_mem: '16384 kB',
      max_connections: '10',
      shared_buffers: '2048 8kB',
    });
  });

  it('takes the shared buffers it is given, on a cluster that exists already', async () => {
    database = await openEmbeddedDatabase({ dataDir, mode: 'own' });
    await database.stop();
    database = await openEmbeddedDatabase({ dataDir, mode: 'own', sharedBuffersMb: 32 });
    expect(await settings(['shared_buffers'])).toEqual({ shared_buffers: '4096 8kB' });
  });
});
