import { Client, type ClientConfig } from 'pg';
import { DatabaseDownError, databaseUnavailability } from '../common/errors/database-unavailable';

export interface DatabaseAvailabilityOptions {
  /** The first probe after the database was seen to go away, and the step back-off starts from. */
  probeFirstMs: number;
  /** The longest wait between two probes: the database is noticed back at most this long after it is. */
  probeMaxMs: number;
  /** How long one probe may take to connect and answer. */
  probeTimeoutMs: number;
  now: () => number;
  /** One line when the database goes away and one when it is back (never one per request). */
  say: (level: 'warn' | 'log', message: string) => void;
}

export const DEFAULT_AVAILABILITY_OPTIONS: Omit<DatabaseAvailabilityOptions, 'say'> = {
  probeFirstMs: 50,
  probeMaxMs: 500,
  probeTimeoutMs: 1_000,
  now: Date.now,
};

/**
 * What this instance knows of its primary database: up, or down since a moment. Every connection
 * of the primary's pool is an instance of `clientClass()`, which reports the connection-level
 * errors it sees (a restart ends each connection with 57P01, a refused connect) and, while the
 * database is known down, refuses to connect at once instead of queueing a request behind a
 * connect timeout. A probe on a connection of its own, with back-off up to `probeMaxMs`, notices
 * the database back; the pool then opens fresh connections as requests need them (the dead ones
 * were dropped by the errors that ended them).
 */
export class DatabaseAvailability {
  private downSince: number | null = null;
  private cause = '';
  private probeTimer: NodeJS.Timeout | null = null;
  private probeDelayMs: number;
  private connectionConfig: ClientConfig | null = null;
  private closed = false;

  constructor(private readonly options: DatabaseAvailabilityOptions) {
    this.probeDelayMs = options.probeFirstMs;
  }

  get isDown(): boolean {
    return this.downSince !== null;
  }

  /** A pg Client class for the primary's pool: reports what it sees, refuses while the database is down. */
  clientClass(): typeof Client {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the class's methods need both `this`es
    const availability = this;
    return class AvailabilityClient extends Client {
      constructor(config?: string | ClientConfig) {
        super(config);
        if (config && typeof config === 'object') availability.connectionConfig ??= config;
        // A connection may raise more than one error as it dies (the server's 57P01, then the
        // socket closing), after the pool and TypeORM have taken their listeners off: without
        // one of ours the second would be an uncaught exception.
        this.on('error', (error: Error) => availability.observe(error));
      }

      // pg's own overloads (a promise, or a callback): both kept.
      override connect(callback?: any): any {
        if (availability.isDown) {
          const refused = new DatabaseDownError(availability.cause);
          if (!callback) return Promise.reject(refused);
          process.nextTick(callback, refused);
          return undefined;
        }
        if (!callback) return super.connect().catch((error: Error) => availability.rethrow(error));
        return super.connect((error: Error | null, client?: Client) => {
          if (error) availability.observe(error);
          callback(error, client);
        });
      }
    } as typeof Client;
  }

  /** Any error from a query or connection: one that says the database is away marks it down (a busy one does not). */
  observe(error: unknown): void {
    if (this.closed || error instanceof DatabaseDownError || databaseUnavailability(error) !== 'lost') return;
    if (this.downSince !== null) return;
    this.downSince = this.options.now();
    this.cause = error instanceof Error ? error.message : String(error);
    this.options.say(
      'warn',
      `the database is unavailable (${this.cause}); requests that need it answer 503 until a probe reaches it again`,
    );
    this.probeDelayMs = this.options.probeFirstMs;
    this.scheduleProbe();
  }

  close(): void {
    this.closed = true;
    if (this.probeTimer) clearTimeout(this.probeTimer);
    this.probeTimer = null;
  }

  private rethrow(error: Error): never {
    this.observe(error);
    throw error;
  }

  private scheduleProbe(): void {
    if (this.closed || this.probeTimer) return;
    this.probeTimer = setTimeout(() => {
      this.probeTimer = null;
      void this.probe();
    }, this.probeDelayMs);
    this.probeTimer.unref();
  }

  private async probe(): Promise<void> {
    if (this.closed || this.downSince === null) return;
    if (await this.reachable()) {
      const seconds = ((this.options.now() - this.downSince) / 1000).toFixed(1);
      this.downSince = null;
      this.options.say('log', `the database is reachable again after ${seconds} s`);
      return;
    }
    this.probeDelayMs = Math.min(this.options.probeMaxMs, this.probeDelayMs * 2);
    this.scheduleProbe();
  }

  /** One connection of the probe's own (never the pool's), asked for one row. */
  private async reachable(): Promise<boolean> {
    if (!this.connectionConfig) return true;
    const timeout = this.options.probeTimeoutMs;
    const client = new Client({ ...this.connectionConfig, connectionTimeoutMillis: timeout, query_timeout: timeout, keepAlive: false });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}
