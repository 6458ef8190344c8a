/**
 * PGlite is one backend shared by every connection to the embedded socket, and the socket
 * server hands it one protocol message at a time. node-postgres sends each parameterized query
 * as Parse, Bind, Execute, Sync; another connection's Parse between them replaced the unnamed
 * statement, so a query ran someone else's SQL with its own parameters. The operator CLI
 * connects beside the running server, so this is not hypothetical. These run the embedded
 * engine whatever database the suite uses.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { openEmbeddedDatabase, type EmbeddedDatabase } from '../../src/database/embedded/embedded-postgres';

function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

function message(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([header, body]);
}

function startupPacket(): Buffer {
  const params = Buffer.from('user\0postgres\0database\0postgres\0\0', 'utf8');
  const header = Buffer.alloc(8);
  header.writeInt32BE(8 + params.length, 0);
  header.writeInt32BE(196608, 4);
  return Buffer.concat([header, params]);
}

/** Connects, starts a Parse with `sql` and goes away before its Sync. */
async function vanishMidQuery(socketPath: string, sql: string): Promise<void> {
  const socket = connect(socketPath);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let received = Buffer.alloc(0);
  const replied = (type: string) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (received.includes(Buffer.from(type, 'latin1'))) {
          socket.off('data', onData);
          resolve();
        }
      };
      const onData = (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        check();
      };
      socket.on('data', onData);
      check();
    });
  socket.write(startupPacket());
  await replied('Z');
  received = Buffer.alloc(0);
  socket.write(message('P', Buffer.concat([Buffer.from(`\0${sql}\0`, 'utf8'), Buffer.from([0, 0])])));
  // ParseComplete ('1') or, for bad SQL, ErrorResponse ('E'): either way the cycle is open.
  await Promise.race([replied('1'), replied('E')]);
  socket.destroy();
}

describe('the embedded socket with several connections', () => {
  let dataDir: string;
  let database: EmbeddedDatabase;
  const connected: Client[] = [];

  const client = async () => {
    const c = new Client(database.target);
    await c.connect();
    connected.push(c);
    return c;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'registry-concurrency-'));
    database = await openEmbeddedDatabase({ dataDir, mode: 'own', analyzeIntervalMs: 3_600_000 });
  });

  afterAll(async () => {
    for (const c of connected) await c.end().catch(() => undefined);
    await database?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps each connection's Parse...Sync together: every query runs its own statement", async () => {
    const [writer, ...readers] = await Promise.all([client(), client(), client()]);
    await writer.query('CREATE TABLE tally (who int NOT NULL, n int NOT NULL)');
    const mixups: string[] = [];
    const rounds = 150;
    await within(
      Promise.all([
        // A transaction beside them: while it is open the socket server serves only its
        // connection, which is when another connection's messages used to land mid-cycle.
        (async () => {
          for (let i = 0; i < rounds; i++) {
            try {
              await writer.query('BEGIN');
              await writer.query('INSERT INTO tally (who, n) VALUES ($1, $2)', [9, i]);
              await writer.query('COMMIT');
            } catch (error) {
              mixups.push(`writer/${i}: ${(error as Error).message}`);
              await writer.query('ROLLBACK').catch(() => undefined);
            }
          }
        })(),
        ...readers.map(async (c, who) => {
          for (let i = 0; i < rounds; i++) {
            try {
              const { rows } = await c.query(`SELECT $1::int AS echo, ${who} AS who`, [i]);
              if (rows.length !== 1 || rows[0].echo !== i || rows[0].who !== who) mixups.push(`${who}/${i}: ${JSON.stringify(rows)}`);
            } catch (error) {
              mixups.push(`${who}/${i}: ${(error as Error).message}`);
            }
          }
        }),
      ]),
      60_000,
      'the concurrent queries',
    );
    expect(mixups).toEqual([]);
    const { rows } = await writer.query('SELECT count(*)::int AS n, count(DISTINCT n)::int AS distinct_n FROM tally WHERE who = 9');
    expect(rows).toEqual([{ n: rounds, distinct_n: rounds }]);
  });

  it('lets the others go on when a connection vanishes between a Parse and its Sync', async () => {
    const socketPath = `${database.target.host}/.s.PGSQL.${database.target.port}`;
    await vanishMidQuery(socketPath, 'SELECT 1');
    await vanishMidQuery(socketPath, 'SELECT no_such_column FROM pg_class');
    const c = await client();
    const { rows } = await within(c.query('SELECT $1::text AS still', ['here']), 10_000, 'a query after the vanished clients');
    expect(rows).toEqual([{ still: 'here' }]);
  });

  it('rolls back the transaction of a connection that vanished after an error inside it', async () => {
    const doomed = await client();
    doomed.on('error', () => undefined);
    await doomed.query('CREATE TABLE IF NOT EXISTS kept (n int)');
    await doomed.query('BEGIN');
    await doomed.query('INSERT INTO kept VALUES (1)');
    await expect(doomed.query('SELECT no_such_column FROM kept')).rejects.toThrow(/no_such_column/);
    (doomed as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();

    const c = await client();
    const { rows } = await within(c.query('SELECT count(*)::int AS n FROM kept'), 10_000, 'a query after the vanished transaction');
    expect(rows).toEqual([{ n: 0 }]);
    await c.query('INSERT INTO kept VALUES (2)');
    expect((await c.query('SELECT count(*)::int AS n FROM kept')).rows).toEqual([{ n: 1 }]);
  });
});
