/**
 * Throwaway PostgreSQL servers for tests that must stop, kill or lag a database: a streaming
 * replica of the machine's cluster, or a fresh cluster from initdb. Each lives in its own temp
 * directory on a free port and is never the machine's shared cluster, which other test files use
 * at the same time.
 */
import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freePort } from './free-port';

const run = promisify(execFile);

/** The newest installed server's bin directory (Debian: /usr/lib/postgresql/<major>/bin), or null. */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const majors = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return majors.length ? join(root, majors[0], 'bin') : null;
}

/** Why scratch servers cannot run here, or null when they can. */
export function scratchPostgresUnavailable(): string | null {
  if (!postgresBinDir()) return 'no PostgreSQL server binaries under /usr/lib/postgresql';
  if (process.getuid?.() === 0 && !postgresUser()) return 'running as root without a postgres user to run the server as';
  return null;
}

function postgresUser(): { uid: number; gid: number } | null {
  try {
    const line = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('postgres:'));
    if (!line) return null;
    const [, , uid, gid] = line.split(':');
    return { uid: Number(uid), gid: Number(gid) };
  } catch {
    return null;
  }
}

/** Runs a server binary, as `postgres` when this process is root (the server refuses root). */
async function pg(binary: string, args: string[]): Promise<string> {
  const path = join(postgresBinDir()!, binary);
  const asRoot = process.getuid?.() === 0;
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, args];
  const { stdout } = await run(file, argv, { timeout: 60_000 });
  return stdout;
}

/** An empty directory the server may own: mode 0700, owned by `postgres` when running as root. */
function serverDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'scratch-pg-'));
  chmodSync(dir, 0o700);
  const owner = process.getuid?.() === 0 ? postgresUser() : null;
  if (owner) chownSync(dir, owner.uid, owner.gid);
  return dir;
}

/** A standby refuses to run with less of these than its primary has. */
const STANDBY_MINIMUMS = [
  'max_connections',
  'max_worker_processes',
  'max_wal_senders',
  'max_prepared_transactions',
  'max_locks_per_transaction',
];

async function primarySettings(primary: { host: string; port: number }): Promise<string[]> {
  const client = new Client({ host: primary.host, port: primary.port, user: 'postgres', database: 'postgres' });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; setting: string }>('SELECT name, setting FROM pg_settings WHERE name = ANY($1)', [
      STANDBY_MINIMUMS,
    ]);
    return rows.map((row) => `${row.name} = ${row.setting}`);
  } finally {
    await client.end();
  }
}

function serverConfig(port: number, dir: string, settings: string[]): string {
  return [
    `port = ${port}`,
    `listen_addresses = '127.0.0.1'`,
    `unix_socket_directories = '${dir}'`,
    'shared_buffers = 16MB',
    // Throwaway data: durability only costs time.
    'fsync = off',
    'synchronous_commit = off',
    'full_page_writes = off',
    ...settings,
    '',
  ].join('\n');
}

const TRUST_LOOPBACK =
  'local all all trust\nhost all all 127.0.0.1/32 trust\nlocal replication all trust\nhost replication all 127.0.0.1/32 trust\n';

export class ScratchPostgres {
  private constructor(
    readonly port: number,
    readonly dataDir: string,
  ) {}

  /** A new cluster from initdb, started; superuser `postgres`, trust on loopback. */
  static async fresh(): Promise<ScratchPostgres> {
    const dataDir = serverDir();
    const port = await freePort();
    return startedOrRemoved(new ScratchPostgres(port, dataDir), async () => {
      await pg('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
      await writeAsServer(join(dataDir, 'postgresql.auto.conf'), serverConfig(port, dataDir, ['max_connections = 60']));
    });
  }

  /** A hot-standby streaming replica of the server at `primary` (host:port), started. */
  static async replicaOf(primary: { host: string; port: number }): Promise<ScratchPostgres> {
    const dataDir = serverDir();
    const port = await freePort();
    return startedOrRemoved(new ScratchPostgres(port, dataDir), async () => {
      await pg('pg_basebackup', [
        '-h',
        primary.host,
        '-p',
        String(primary.port),
        '-U',
        'postgres',
        '-D',
        dataDir,
        '-R',
        '-X',
        'stream',
        '-c',
        'fast',
        '--no-sync',
      ]);
      // Debian keeps the primary's postgresql.conf and pg_hba.conf outside its data directory.
      const config = serverConfig(port, dataDir, ['hot_standby = on', ...(await primarySettings(primary))]);
      await writeAsServer(join(dataDir, 'postgresql.conf'), config);
      await writeAsServer(join(dataDir, 'pg_hba.conf'), TRUST_LOOPBACK);
      // A scratch primary keeps its port and socket directory in postgresql.auto.conf, which the
      // copy carries and which wins over postgresql.conf: the replica's own come after them.
      const auto = join(dataDir, 'postgresql.auto.conf');
      await writeAsServer(auto, `${existsSync(auto) ? readFileSync(auto, 'utf8') : ''}\n${config}`);
    });
  }

  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  async start(): Promise<void> {
    const log = join(this.dataDir, 'server.log');
    try {
      await pg('pg_ctl', ['start', '-w', '-t', '60', '-D', this.dataDir, '-l', log]);
    } catch (error) {
      const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-15).join('\n') : '(no log)';
      throw new Error(`${(error as Error).message}\nserver log:\n${tail}`);
    }
  }

  /** `fast` ends sessions and stops cleanly; `immediate` is a crash as far as clients can tell. */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    await pg('pg_ctl', ['stop', '-w', '-t', '60', '-m', mode, '-D', this.dataDir]).catch(() => undefined);
  }

  /** One statement on a short-lived connection. */
  async query<T = Record<string, unknown>>(sql: string, params: unknown[] = [], database = 'postgres'): Promise<T[]> {
    const client = new Client({ connectionString: this.url(database) });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  }

  /** Stops the server at once (if running) and deletes its files. */
  async remove(): Promise<void> {
    await this.stop('immediate');
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** Prepares the files and starts the server; on any failure nothing is left running or on disk. */
async function startedOrRemoved(server: ScratchPostgres, prepare: () => Promise<void>): Promise<ScratchPostgres> {
  try {
    await prepare();
    await server.start();
    return server;
  } catch (error) {
    await server.remove();
    throw error;
  }
}

async function writeAsServer(path: string, text: string): Promise<void> {
  writeFileSync(path, text, { mode: 0o600 });
  const owner = process.getuid?.() === 0 ? postgresUser() : null;
  if (owner) chownSync(path, owner.uid, owner.gid);
}
