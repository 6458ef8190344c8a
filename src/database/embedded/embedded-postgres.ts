import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

/** Where `pg` reaches a Postgres server: a Unix socket directory for the embedded engine. */
export interface PgConnectionTarget {
  host: string;
  port: number;
  user: string;
  database: string;
}

export interface EmbeddedDatabase {
  readonly target: PgConnectionTarget;
  /** True when this process hosts the engine; false when it reaches another process's engine. */
  readonly owner: boolean;
  /** Runs ANALYZE now (tests and bulk loads); a no-op for a non-owner. */
  analyze(): Promise<void>;
  stop(): Promise<void>;
}

export interface EmbeddedDatabaseOptions {
  dataDir: string;
  /** `serve` insists on owning the files; operator commands join a running owner. */
  mode: 'own' | 'own-or-join';
  /** How long to wait for another owner to appear or go away. */
  waitMs?: number;
  analyzeIntervalMs?: number;
}

const SOCKET_PORT = 5432;
const CONNECTIONS = 8;

function socketDirectory(dataDir: string): string {
  return join(dataDir, 'run');
}

function socketPath(dataDir: string): string {
  return join(socketDirectory(dataDir), `.s.PGSQL.${SOCKET_PORT}`);
}

function lockPath(dataDir: string): string {
  return join(dataDir, 'pglite.lock');
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function socketAnswers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function tryTakeLock(dataDir: string): boolean {
  try {
    writeFileSync(lockPath(dataDir), String(process.pid), { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function lockHolder(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(lockPath(dataDir), 'utf8'));
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

function target(dataDir: string): PgConnectionTarget {
  return { host: socketDirectory(dataDir), port: SOCKET_PORT, user: 'postgres', database: 'postgres' };
}

async function startOwner(dataDir: string, analyzeIntervalMs: number): Promise<EmbeddedDatabase> {
  removeQuietly(socketPath(dataDir));
  mkdirSync(socketDirectory(dataDir), { recursive: true });
  const worker = new Worker(join(__dirname, 'pglite-worker.js'), {
    workerData: {
      pgDataDir: join(dataDir, 'pg'),
      socketPath: socketPath(dataDir),
      maxConnections: CONNECTIONS,
      analyzeIntervalMs,
    },
  });
  const releaseLock = () => {
    if (lockHolder(dataDir) === process.pid) removeQuietly(lockPath(dataDir));
  };
  process.once('exit', releaseLock);

  const waitFor = (type: string) =>
    new Promise<void>((resolve, reject) => {
      const onMessage = (message: { type: string; message?: string }) => {
        if (message.type === type) {
          worker.off('message', onMessage);
          resolve();
        } else if (message.type === 'error') {
          worker.off('message', onMessage);
          reject(new Error(`embedded database failed to start: ${message.message}`));
        }
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    });

  try {
    await waitFor('ready');
  } catch (error) {
    await worker.terminate();
    releaseLock();
    throw error;
  }

  let stopped: Promise<void> | null = null;
  return {
    target: target(dataDir),
    owner: true,
    async analyze() {
      const done = waitFor('analyzed');
      worker.postMessage({ type: 'analyze' });
      await done;
    },
    stop() {
      stopped ??= (async () => {
        const done = waitFor('stopped');
        worker.postMessage({ type: 'stop' });
        await Promise.race([done, sleep(10_000)]);
        await worker.terminate();
        removeQuietly(socketPath(dataDir));
        releaseLock();
        process.off('exit', releaseLock);
      })();
      return stopped;
    },
  };
}

/**
 * Opens the embedded PGlite database under DATA_DIR. Exactly one process owns the files (a lock
 * file names it); any other process reaches the database through the owner's socket.
 */
export async function openEmbeddedDatabase(options: EmbeddedDatabaseOptions): Promise<EmbeddedDatabase> {
  const { dataDir, mode } = options;
  const waitMs = options.waitMs ?? 15_000;
  const analyzeIntervalMs = options.analyzeIntervalMs ?? 60_000;
  mkdirSync(dataDir, { recursive: true });
  const deadline = Date.now() + waitMs;

  for (;;) {
    if (tryTakeLock(dataDir)) return startOwner(dataDir, analyzeIntervalMs);

    const holder = lockHolder(dataDir);
    if (holder !== null && !processAlive(holder)) {
      // The previous owner died without cleaning up.
      removeQuietly(lockPath(dataDir));
      continue;
    }
    if (holder === process.pid) {
      throw new Error(`this process already owns the embedded database in ${dataDir}`);
    }
    if (mode === 'own-or-join' && existsSync(socketPath(dataDir)) && (await socketAnswers(socketPath(dataDir)))) {
      return {
        target: target(dataDir),
        owner: false,
        analyze: async () => undefined,
        stop: async () => undefined,
      };
    }
    if (Date.now() > deadline) {
      throw new Error(
        mode === 'own'
          ? `the embedded database in ${dataDir} is in use by process ${holder}; stop it or use a different DATA_DIR`
          : `the embedded database in ${dataDir} is locked by process ${holder} but does not answer`,
      );
    }
    await sleep(200);
  }
}
