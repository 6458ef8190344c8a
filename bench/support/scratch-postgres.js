'use strict';
// A throwaway PostgreSQL cluster from initdb, in its own temp directory on a free port, so a
// benchmark can stop and start it without touching the machine's shared cluster. The JS twin of
// test/support/scratch-postgres.ts (fresh clusters only).
const { execFile } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { promisify } = require('node:util');
const { Client } = require('pg');
const { freePort } = require('./free-port');

const run = promisify(execFile);

/** The newest installed server's bin directory (Debian: /usr/lib/postgresql/<major>/bin), or null. */
function postgresBinDir() {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const majors = fs
    .readdirSync(root)
    .filter((name) => fs.existsSync(path.join(root, name, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return majors.length ? path.join(root, majors[0], 'bin') : null;
}

function postgresUser() {
  try {
    const line = fs
      .readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('postgres:'));
    if (!line) return null;
    const [, , uid, gid] = line.split(':');
    return { uid: Number(uid), gid: Number(gid) };
  } catch {
    return null;
  }
}

const asRoot = () => process.getuid?.() === 0;

/** Why a scratch cluster cannot run here, or null when it can. */
function scratchPostgresUnavailable() {
  if (!postgresBinDir()) return 'no PostgreSQL server binaries under /usr/lib/postgresql';
  if (asRoot() && !postgresUser()) return 'running as root without a postgres user to run the server as';
  return null;
}

/** Runs a server binary, as `postgres` when this process is root (the server refuses root). */
async function pg(binary, args) {
  const file = path.join(postgresBinDir(), binary);
  const [command, argv] = asRoot() ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
  const { stdout } = await run(command, argv, { timeout: 90_000 });
  return stdout;
}

/** Writes a file the server may read, owned by `postgres` when running as root. */
function writeAsServer(file, text) {
  fs.writeFileSync(file, text, { mode: 0o600 });
  const owner = asRoot() ? postgresUser() : null;
  if (owner) fs.chownSync(file, owner.uid, owner.gid);
}

class ScratchPostgres {
  constructor(port, dataDir) {
    this.port = port;
    this.dataDir = dataDir;
  }

  /** A new cluster, started; superuser `postgres`, trust on loopback. */
  static async fresh({ maxConnections = 100 } = {}) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outage-pg-'));
    fs.chmodSync(dataDir, 0o700);
    const owner = asRoot() ? postgresUser() : null;
    if (owner) fs.chownSync(dataDir, owner.uid, owner.gid);
    const server = new ScratchPostgres(await freePort(), dataDir);
    try {
      await pg('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
      const config = [
        `port = ${server.port}`,
        `listen_addresses = '127.0.0.1'`,
        `unix_socket_directories = '${dataDir}'`,
        'shared_buffers = 32MB',
        `max_connections = ${maxConnections}`,
        // Throwaway data: durability only costs time. A `fast` stop still checkpoints, so
        // nothing committed is lost across the restart the benchmark makes.
        'fsync = off',
        'synchronous_commit = off',
        'full_page_writes = off',
        '',
      ].join('\n');
      writeAsServer(path.join(dataDir, 'postgresql.auto.conf'), config);
      await server.start();
      return server;
    } catch (error) {
      await server.remove();
      throw error;
    }
  }

  url(database = 'postgres') {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  get logFile() {
    // Outside the data directory's contents initdb made, but inside it so remove() takes it.
    return path.join(this.dataDir, 'server.log');
  }

  async start() {
    try {
      await pg('pg_ctl', ['start', '-w', '-t', '60', '-D', this.dataDir, '-l', this.logFile]);
    } catch (error) {
      throw new Error(`${error.message}\nserver log:\n${this.logTail(15)}`);
    }
  }

  /** `fast` ends sessions and stops cleanly; `immediate` is a crash as far as clients can tell. */
  async stop(mode = 'fast') {
    await pg('pg_ctl', ['stop', '-w', '-t', '60', '-m', mode, '-D', this.dataDir]).catch(() => undefined);
  }

  logTail(lines) {
    return fs.existsSync(this.logFile) ? fs.readFileSync(this.logFile, 'utf8').split('\n').slice(-lines).join('\n') : '(no log)';
  }

  /** One statement on a short-lived connection. */
  async query(sql, params = [], database = 'postgres') {
    const client = new Client({ connectionString: this.url(database) });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows;
    } finally {
      await client.end();
    }
  }

  /** Stops the server at once (if running) and deletes its files. */
  async remove() {
    if (fs.existsSync(path.join(this.dataDir, 'postmaster.pid'))) await this.stop('immediate');
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}

module.exports = { ScratchPostgres, scratchPostgresUnavailable };
