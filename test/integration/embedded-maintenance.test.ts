/**
 * The embedded engine's maintenance (ANALYZE) against the engine itself: it must run without
 * wedging later queries, and never in the middle of a client's query cycle or transaction.
 * These exercise the embedded engine directly, whatever database the suite runs on.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { openEmbeddedDatabase, type EmbeddedDatabase } from '../../src/database/embedded/embedded-postgres';

/** Fails with a message instead of hanging until the Jest timeout. */
function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

function message(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([header, body]);
}
const cstring = (text: string) => Buffer.from(`${text}\0`, 'utf8');
const int16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
};
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};

/** A bare wire-protocol client, to stop between a Parse and its Sync as the socket server sees it. */
class WireClient {
  private buffered = Buffer.alloc(0);
  private waiting: (() => void) | null = null;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffered = Buffer.concat([this.buffered, chunk]);
      this.waiting?.();
    });
  }

  static async open(path: string): Promise<WireClient> {
    const socket = connect(path);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const client = new WireClient(socket);
    const params = Buffer.concat([cstring('user'), cstring('postgres'), cstring('database'), cstring('postgres'), Buffer.from([0])]);
    const startup = Buffer.concat([int32(8 + params.length), int32(196608), params]);
    socket.write(startup);
    await client.until('Z');
    return client;
  }

  send(...messages: Buffer[]): void {
    this.socket.write(Buffer.concat(messages));
  }

  /** Reads whole messages until one of `type` arrives; returns their type letters. */
  async until(type: string): Promise<string[]> {
    const seen: string[] = [];
    for (;;) {
      while (this.buffered.length >= 5 && this.buffered.length >= 1 + this.buffered.readInt32BE(1)) {
        const length = 1 + this.buffered.readInt32BE(1);
        const letter = String.fromCharCode(this.buffered[0]!);
        seen.push(letter === 'E' ? `E:${this.buffered.subarray(5, length).toString('utf8').replace(/\0/g, ' ').trim()}` : letter);
        this.buffered = this.buffered.subarray(length);
        if (letter === type) return seen;
      }
      await new Promise<void>((resolve) => (this.waiting = resolve));
      this.waiting = null;
    }
  }

  close(): void {
    this.socket.end(message('X'));
    this.socket.destroy();
  }
}

describe('embedded maintenance (ANALYZE)', () => {
  let dataDir: string;
  let database: EmbeddedDatabase;
  let socketPath: string;

  const query = async (sql: string) => {
    const client = new Client(database.target);
    await client.connect();
    try {
      return await client.query(sql);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'registry-maintenance-'));
    // Long enough that only the runs this file asks for happen, until the last test.
    database = await openEmbeddedDatabase({ dataDir, mode: 'own', analyzeIntervalMs: 3_600_000 });
    socketPath = `${database.target.host}/.s.PGSQL.${database.target.port}`;
    await query('CREATE TABLE gauge (n int NOT NULL); INSERT INTO gauge SELECT g FROM generate_series(1, 50) g');
    await query(
      'CREATE SCHEMA side; CREATE TABLE side.dial (n int NOT NULL); INSERT INTO side.dial SELECT g FROM generate_series(1, 20) g',
    );
  });

  afterAll(async () => {
    await database?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs, and every later query still answers', async () => {
    expect(await within(database.analyze(), 10_000, 'ANALYZE')).toBe(true);
    const result = await within(query('SELECT count(*)::int AS n FROM gauge'), 10_000, 'a query after ANALYZE');
    expect(result.rows).toEqual([{ n: 50 }]);
    // Table by table, every schema of ours (a database-wide ANALYZE would hold the engine through
    // the system catalogues too).
    const stats = await query(
      "SELECT relname, reltuples::int AS estimate FROM pg_class WHERE relname IN ('gauge', 'dial') ORDER BY relname",
    );
    expect(stats.rows).toEqual([
      { relname: 'dial', estimate: 20 },
      { relname: 'gauge', estimate: 50 },
    ]);
  });

  it('samples a table larger than the bound with a lower statistics target, and the session keeps the stock one', async () => {
    // ~1.5 KB rows stored inline: 6,000 of them are ~9.5 MiB, past the 8 MiB sample bound.
    await query(
      'CREATE TABLE wide (n int NOT NULL, body text NOT NULL); INSERT INTO wide SELECT g, repeat(md5(g::text), 47) FROM generate_series(1, 6000) g',
    );
    const histogram = async () =>
      (
        await query(
          "SELECT array_length(histogram_bounds::text::int[], 1) AS bounds FROM pg_stats WHERE tablename = 'wide' AND attname = 'n'",
        )
      ).rows[0]?.bounds;
    expect(await within(database.analyze(), 10_000, 'ANALYZE')).toBe(true);
    // Never analyzed, its width unknown: the floor (10), so at most 11 bounds.
    expect(await histogram()).toBe(11);
    expect(await within(database.analyze(), 10_000, 'ANALYZE')).toBe(true);
    // Its width known now: as many ~1.6 KB rows as fit 8 MiB, 300 a unit of target.
    const { rows } = await query("SELECT pg_relation_size('wide') AS heap, reltuples FROM pg_class WHERE relname = 'wide'");
    const target = Math.floor((8 * 1024 * 1024) / (300 * (Number(rows[0].heap) / Number(rows[0].reltuples))));
    expect(target).toBeGreaterThan(10);
    expect(target).toBeLessThan(100);
    expect(await histogram()).toBe(target + 1);
    expect((await query('SHOW default_statistics_target')).rows).toEqual([{ default_statistics_target: '100' }]);
    await query('DROP TABLE wide');
  });

  it("waits out a client's Parse...Sync cycle instead of dropping its unnamed statement", async () => {
    const client = await WireClient.open(socketPath);
    try {
      client.send(message('P', cstring(''), cstring('SELECT count(*) FROM gauge WHERE n > $1'), int16(0)));
      // The reply is written under PGlite's query lock, which analyze() then has to take.
      expect(await client.until('1')).toEqual(['1']);

      expect(await within(database.analyze(), 10_000, 'ANALYZE')).toBe(false);

      client.send(
        message('B', cstring(''), cstring(''), int16(0), int16(1), int32(2), Buffer.from('40'), int16(0)),
        message('E', cstring(''), int32(0)),
        message('S'),
      );
      expect(await client.until('Z')).toEqual(['2', 'D', 'C', 'Z']);
      expect(await within(database.analyze(), 10_000, 'ANALYZE')).toBe(true);
    } finally {
      client.close();
    }
  });

  it("waits out a client's transaction", async () => {
    const client = new Client(database.target);
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query('INSERT INTO gauge VALUES (51)');
      expect(await within(database.analyze(), 10_000, 'ANALYZE')).toBe(false);
      await client.query('COMMIT');
      expect(await within(database.analyze(), 10_000, 'ANALYZE')).toBe(true);
    } finally {
      await client.end();
    }
  });

  it('runs on its own interval and the engine keeps answering', async () => {
    const periodicDir = mkdtempSync(join(tmpdir(), 'registry-maintenance-'));
    const periodic = await openEmbeddedDatabase({ dataDir: periodicDir, mode: 'own', analyzeIntervalMs: 100 });
    const client = new Client(periodic.target);
    try {
      await client.connect();
      await client.query('CREATE TABLE tick (n int NOT NULL); INSERT INTO tick SELECT g FROM generate_series(1, 30) g');
      // reltuples is -1 until the table's first ANALYZE: only the timer can have run it.
      let estimate = -1;
      for (let attempt = 0; attempt < 100 && estimate !== 30; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const stats = await within(
          client.query("SELECT reltuples::int AS estimate FROM pg_class WHERE relname = 'tick'"),
          10_000,
          'a query',
        );
        estimate = stats.rows[0].estimate;
      }
      expect(estimate).toBe(30);
      const count = await within(client.query('SELECT count(*)::int AS n FROM tick'), 10_000, 'a query after periodic ANALYZE');
      expect(count.rows).toEqual([{ n: 30 }]);
    } finally {
      await client.end();
      await periodic.stop();
      rmSync(periodicDir, { recursive: true, force: true });
    }
  });
});
