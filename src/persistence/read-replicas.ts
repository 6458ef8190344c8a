import { DataSource, type DataSourceOptions } from 'typeorm';
import { BackgroundLoop } from '../common/background-loop';

export type ReplicaState = 'up' | 'down';

/** One replica as health reports it: its position in DATABASE_READ_URLS (from 0), never its URL. */
export interface ReplicaStatus {
  index: number;
  state: ReplicaState;
  /** When it entered this state. */
  since: Date;
}

/** A replica a catalogue read may use now. */
export interface ReplicaHandle {
  readonly index: number;
  readonly dataSource: DataSource;
}

export interface ReplicaLog {
  log(message: string): void;
  warn(message: string): void;
}

export interface ReadReplicaOptions {
  /**
   * A replica's TypeORM options from its URL. Passed in rather than imported: they carry every
   * feature's entities, which the database assembly (src/database/) lists above the features.
   */
  dataSourceOptions: (url: string) => DataSourceOptions;
  /** How often every replica is checked: a down one is taken back once it answers, an up one that stopped is marked down. */
  probeIntervalMs: number;
  /** A check that takes longer counts as down. */
  probeTimeoutMs?: number;
  now?: () => Date;
}

const DEFAULT_PROBE_TIMEOUT_MS = 5_000;

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

class Replica implements ReplicaHandle {
  /** Null until the first probe. */
  state: ReplicaState | null = null;
  since: Date;
  readonly dataSource: DataSource;
  /** A connection attempt under way (a slow one may outlast its probe; the next probe waits for it, never starts a second). */
  private connecting: Promise<void> | null = null;

  constructor(
    readonly index: number,
    options: DataSourceOptions,
    at: Date,
  ) {
    this.dataSource = new DataSource(options);
    this.since = at;
  }

  /** Connects on first use (or after a failed start), then asks the server a trivial question. */
  async check(): Promise<void> {
    if (!this.dataSource.isInitialized) {
      this.connecting ??= this.dataSource
        .initialize()
        .then(() => undefined)
        .finally(() => (this.connecting = null));
      await this.connecting;
    }
    await this.dataSource.query('SELECT 1');
  }

  async close(): Promise<void> {
    await this.connecting?.catch(() => undefined);
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

/**
 * The read replicas (DATABASE_READ_URLS), each with a pool of its own and a state. A replica that
 * does not answer never stops the start or a read: it is marked down, catalogue reads use the
 * primary meanwhile, and a periodic probe takes it back once it answers. Framework-free: the
 * database handle owns it, the server starts its probe (operator commands never connect to it).
 */
export class ReadReplicas {
  private readonly replicas: Replica[];
  private readonly now: () => Date;
  private readonly probeTimeoutMs: number;
  private readonly loop: BackgroundLoop;
  private log: ReplicaLog = { log: () => undefined, warn: () => undefined };
  private next = 0;

  constructor(urls: readonly string[], options: ReadReplicaOptions) {
    this.now = options.now ?? (() => new Date());
    this.probeTimeoutMs = options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
    this.replicas = urls.map((url, index) => new Replica(index, options.dataSourceOptions(url), this.now()));
    this.loop = new BackgroundLoop(
      () => this.probe(),
      options.probeIntervalMs,
      (error) => this.log.warn(`probing the read replicas failed: ${error.message}`),
    );
  }

  get configured(): boolean {
    return this.replicas.length > 0;
  }

  statuses(): ReplicaStatus[] {
    return this.replicas.map((replica) => ({ index: replica.index, state: replica.state ?? 'down', since: replica.since }));
  }

  /** The next replica that is up (round robin), or null when none is: the read goes to the primary. */
  pick(): ReplicaHandle | null {
    for (let tried = 0; tried < this.replicas.length; tried++) {
      const replica = this.replicas[this.next++ % this.replicas.length]!;
      if (replica.state === 'up') return replica;
    }
    return null;
  }

  /** A read found the replica unreachable: no read goes there until a probe sees it answer. */
  markDown(handle: ReplicaHandle, error: unknown): void {
    this.setState(this.replicas[handle.index]!, 'down', reason(error));
  }

  /** Checks every replica at once; each ends up or down. Never throws. */
  async probe(): Promise<void> {
    await Promise.all(
      this.replicas.map(async (replica) => {
        try {
          await withTimeout(replica.check(), this.probeTimeoutMs);
          this.setState(replica, 'up');
        } catch (error) {
          this.setState(replica, 'down', reason(error));
        }
      }),
    );
  }

  /** The first probe (so the start knows which replicas answer), then one every interval. Never throws. */
  async start(log: ReplicaLog): Promise<void> {
    if (!this.configured) return;
    this.log = log;
    await this.probe();
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  async close(): Promise<void> {
    await this.stop();
    await Promise.all(this.replicas.map((replica) => replica.close()));
  }

  private setState(replica: Replica, state: ReplicaState, why?: string): void {
    if (replica.state === state) return;
    const first = replica.state === null;
    replica.state = state;
    replica.since = this.now();
    if (state === 'up') this.log.log(`read replica ${replica.index} answers: catalogue reads use it${first ? '' : ' again'}`);
    else
      this.log.warn(
        `read replica ${replica.index} ${first ? 'does not answer' : 'is down'} (${why}); catalogue reads use the primary until it answers`,
      );
  }
}
