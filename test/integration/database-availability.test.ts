/**
 * The primary's availability as a serving process tracks it: a pool whose connections all die
 * knows the database is down, refuses new connections at once (no connect timeout to wait out)
 * with an error the problem filter answers 503, and takes the database back as soon as a probe
 * reaches it. A loopback proxy in front of the machine's server stands in for its restart.
 */
import { Pool } from 'pg';
import { DatabaseAvailability, DEFAULT_AVAILABILITY_OPTIONS } from '../../src/database/database-availability';
import { DatabaseDownError, isDatabaseUnavailable } from '../../src/common/errors/database-unavailable';
import { eventually } from '../support/eventually';
import { TcpProxy } from '../support/tcp-proxy';

const databaseUrl = process.env.DATABASE_URL;
const describeWithServer = databaseUrl ? describe : describe.skip;

describeWithServer('DatabaseAvailability (PostgreSQL through a proxy that can be cut)', () => {
  let proxy: TcpProxy;
  let pool: Pool;
  let availability: DatabaseAvailability;
  const said: { level: string; message: string }[] = [];
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);

  beforeAll(async () => {
    const target = new URL(databaseUrl!);
    proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    await proxy.start();
    availability = new DatabaseAvailability({ ...DEFAULT_AVAILABILITY_OPTIONS, say: (level, message) => said.push({ level, message }) });
    const url = new URL(databaseUrl!);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    pool = new Pool({
      connectionString: url.toString(),
      max: 4,
      connectionTimeoutMillis: 5_000,
      Client: availability.clientClass() as never,
    });
    pool.on('error', () => undefined);
    process.on('uncaughtException', onUncaught);
  });

  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    availability?.close();
    await pool?.end().catch(() => undefined);
    await proxy?.stop();
  });

  it('notices the database gone, refuses at once while it is, and takes it back when a probe reaches it', async () => {
    await Promise.all([1, 2, 3].map(() => pool.query('SELECT pg_sleep(0.05)')));
    expect(availability.isDown).toBe(false);

    await proxy.stop();
    await eventually(async () => availability.isDown || null, 'the database seen down');
    expect(said).toEqual([{ level: 'warn', message: expect.stringMatching(/the database is unavailable/) }]);

    const started = Date.now();
    const refused = await pool.query('SELECT 1').catch((error: unknown) => error);
    expect(Date.now() - started).toBeLessThan(500);
    expect(refused).toBeInstanceOf(DatabaseDownError);
    expect(isDatabaseUnavailable(refused)).toBe(true);
    // Refusals are not news: still the one warning.
    expect(said).toHaveLength(1);

    await proxy.start();
    const back = Date.now();
    await eventually(async () => !availability.isDown || null, 'the database seen back', 3_000);
    expect(Date.now() - back).toBeLessThan(DEFAULT_AVAILABILITY_OPTIONS.probeMaxMs + 500);
    expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    expect(said.map((entry) => entry.level)).toEqual(['warn', 'log']);
    expect(uncaught).toEqual([]);
  });

  it('does not call a failed statement a lost database', async () => {
    await expect(pool.query('SELECT * FROM no_such_table_anywhere')).rejects.toThrow(/does not exist/);
    await expect(pool.query('SELECT 1/0')).rejects.toThrow(/division by zero/);
    expect(availability.isDown).toBe(false);
  });
});
