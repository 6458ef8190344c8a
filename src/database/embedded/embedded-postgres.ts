import { existsSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ensurePrivateDirectory, PRIVATE_FILE_MODE, tightenTree } from '../../lib/files/private-directory';
import { DEFAULT_SHARED_BUFFERS_MB } from '../../config/database';

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
  /**
   * Runs ANALYZE now (tests and bulk loads). False when it could not: a client's statement or
   * transaction was open (the periodic run retries), or this process does not own the engine.
   */
  analyze(): Promise<boolean>;
  stop(): Promise<void>;
}

export interface EmbeddedDatabaseOptions {
  dataDir: string;
  /** `serve` insists on owning the files; operator commands join a running owner. */
  mode: 'own' | 'own-or-join';
  /** How long to wait for another owner to go away (own) or to answer (own-or-join). */
  waitMs?: number;
  analyzeIntervalMs?: number;
  /** The engine's shared_buffers (see engine-settings.js for what the default saves). */
  sharedBuffersMb?: number;
}

const SOCKET_PORT = 5432;
// The owner's pool is one connection; the rest are operator commands and, in tests, other instances
// reaching the engine through a proxy, each with a pool of its own: beyond this, Node drops a connection.
const CONNECTIONS = 32;
/** `serve` gives a stopping owner a moment; the CLI waits longer for a starting server to answer. */
const DEFAULT_WAIT_MS = { own: 5_000, 'own-or-join': 15_000 } as const;
/**
 * The engine thread's young generation (V8's default grows it to 32 MB and more). What the engine
 * allocates in JavaScript is each query's messages, dead by the next one: under the catalogue
 * benchmark a 4 MB nursery held the process's peak 30-40 MiB lower (362-368 -> 330-333 MiB on
 * detail and search, 429-432 -> 393-404 on the whole run), with no change in throughput seen.
 */
const ENGINE_YOUNG_GENERATION_MB = 4;
/** An empty lock younger than this may be an owner between creating and writing it. */
const EMPTY_LOCK_GRACE_MS = 2_000;

/** Another live process owns the embedded files; `serve` reports it and exits non-zero. */
export class EmbeddedDatabaseInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: number | null,
  ) {
    super(`the embedded database in ${dataDir} is in use by process ${holder ?? 'unknown'}: stop it or choose another DATA_DIR`);
    this.name = 'EmbeddedDatabaseInUseError';
  }
}

/** Data directories whose engine this process hosts right now (their lock names our PID). */
const hostedHere = new Set<string>();

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
    writeFileSync(lockPath(dataDir), String(process.pid), { flag: 'wx', mode: PRIVATE_FILE_MODE });
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

function lockAgeMs(dataDir: string): number {
  try {
    return Date.now() - statSync(lockPath(dataDir)).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Whether nobody can be behind the lock any more. After SIGKILL
 * the lock stays behind; a restarted container often gives the new process the very PID it
 * names (PID 1), so our own PID is stale unless this process hosts the engine itself.
 */
function staleLock(dataDir: string, holder: number | null): boolean {
  if (holder === null) return lockAgeMs(dataDir) > EMPTY_LOCK_GRACE_MS;
  if (holder === process.pid) return !hostedHere.has(dataDir);
  return !processAlive(holder);
}

/**
 * Removes a stale lock unless another starter already replaced it with its own. Two starters
 * taking over one stale directory within the same microseconds remain a race; a lock file
 * cannot close it without an OS file lock, which Node does not offer.
 */
function removeStaleLock(dataDir: string, holder: number | null): void {
  if (lockHolder(dataDir) === holder) removeQuietly(lockPath(dataDir));
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

/** Keeps the process alive while it waits: nothing else may be pending (an unref'd wait let `serve` exit 0). */
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** A limit on a wait that must not itself keep the process alive. */
const deadlineAfter = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

function target(dataDir: string): PgConnectionTarget {
  return { host: socketDirectory(dataDir), port: SOCKET_PORT, user: 'postgres', database: 'postgres' };
}

interface WorkerMessage {
  type: string;
  message?: string;
  ran?: boolean;
}

interface EngineOptions {
  analyzeIntervalMs: number;
  sharedBuffersMb: number;
}

async function startOwner(dataDir: string, engine: EngineOptions): Promise<EmbeddedDatabase> {
  removeQuietly(socketPath(dataDir));
  // Files an older version (or a restored backup) left world-readable are tightened before the
  // engine opens them; the worker creates every new one owner-only.
  tightenTree(dataDir);
  ensurePrivateDirectory(socketDirectory(dataDir));
  const worker = new Worker(join(__dirname, 'pglite-worker.js'), {
    workerData: {
      pgDataDir: join(dataDir, 'pg'),
      socketPath: socketPath(dataDir),
      maxConnections: CONNECTIONS,
      analyzeIntervalMs: engine.analyzeIntervalMs,
      sharedBuffersMb: engine.sharedBuffersMb,
    },
    resourceLimits: { maxYoungGenerationSizeMb: ENGINE_YOUNG_GENERATION_MB },
  });
  hostedHere.add(dataDir);
  const releaseLock = () => {
    hostedHere.delete(dataDir);
    if (lockHolder(dataDir) === process.pid) removeQuietly(lockPath(dataDir));
  };
  process.once('exit', releaseLock);

  const waitFor = (type: string) =>
    new Promise<WorkerMessage>((resolve, reject) => {
      const onMessage = (message: WorkerMessage) => {
        if (message.type === type) {
          worker.off('message', onMessage);
          resolve(message);
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
      return (await done).ran === true;
    },
    stop() {
      stopped ??= (async () => {
        const done = waitFor('stopped');
        worker.postMessage({ type: 'stop' });
        await Promise.race([done, deadlineAfter(10_000)]);
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
 * file names it); any other process reaches the database through the owner's socket. A stale
 * lock (its process gone, or naming this process which does not host the engine) is taken over.
 */
export async function openEmbeddedDatabase(options: EmbeddedDatabaseOptions): Promise<EmbeddedDatabase> {
  const { mode } = options;
  const dataDir = resolve(options.dataDir);
  const waitMs = options.waitMs ?? DEFAULT_WAIT_MS[mode];
  const engine = {
    analyzeIntervalMs: options.analyzeIntervalMs ?? 60_000,
    sharedBuffersMb: options.sharedBuffersMb ?? DEFAULT_SHARED_BUFFERS_MB,
  };
  ensurePrivateDirectory(dataDir);
  const deadline = Date.now() + waitMs;

  for (;;) {
    if (tryTakeLock(dataDir)) return startOwner(dataDir, engine);

    const holder = lockHolder(dataDir);
    if (holder === process.pid && hostedHere.has(dataDir)) {
      throw new Error(`this process already owns the embedded database in ${dataDir}`);
    }
    if (staleLock(dataDir, holder)) {
      removeStaleLock(dataDir, holder);
      continue;
    }
    if (mode === 'own-or-join' && existsSync(socketPath(dataDir)) && (await socketAnswers(socketPath(dataDir)))) {
      return {
        target: target(dataDir),
        owner: false,
        analyze: async () => false,
        stop: async () => undefined,
      };
    }
    if (Date.now() > deadline) {
      if (mode === 'own') throw new EmbeddedDatabaseInUseError(dataDir, holder);
      throw new Error(`the embedded database in ${dataDir} is locked by process ${holder} but does not answer`);
    }
    await sleep(200);
  }
}
