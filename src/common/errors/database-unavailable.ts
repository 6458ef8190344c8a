const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** admin_shutdown, crash_shutdown, cannot_connect_now; class 08 is connection exceptions. */
const LOST_SQLSTATES = new Set(['57P01', '57P02', '57P03']);
/** too_many_connections, and query_canceled (a statement past DATABASE_STATEMENT_TIMEOUT_MS): the server is there, but too busy. */
const BUSY_SQLSTATES = new Set(['53300', '57014']);
/** node-postgres and pg-pool say these without a code. */
const LOST_MESSAGES = /Connection terminated|Client has encountered a connection error|Client was closed and is not queryable/;
/** pg-pool's answer to a request that waited DATABASE_CONNECT_TIMEOUT_MS for a free connection. */
const BUSY_MESSAGES = /timeout exceeded when trying to connect/;
/**
 * TypeORM gives a transaction's runner back to the pool when its connection dies under it: every
 * statement after that, the rollback included, fails with one of these (the second through an
 * entity manager bound to the runner).
 */
const RELEASED_RUNNER = new Set(['QueryRunnerAlreadyReleasedError', 'QueryRunnerProviderAlreadyReleasedError']);

/** Refused without trying: this instance knows the database is down and is probing for it. */
export class DatabaseDownError extends Error {
  override readonly name = 'DatabaseDownError';
  readonly code = 'EDATABASEDOWN';

  constructor(cause: string) {
    super(`the database is unavailable (${cause}); not connecting until it answers again`);
  }
}

/**
 * Why a request cannot be served by the database right now, or null for a bad query (a request
 * error, a bug): `lost` when it cannot be reached (down, restarting, a connection that died),
 * `busy` when it is there but refused or timed out the work. Either way the request gets 503 and
 * may be retried; only `lost` means the database is away.
 */
export function databaseUnavailability(error: unknown): 'lost' | 'busy' | null {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 4; depth += 1) {
    const { name, code, message, driverError, cause } = e as {
      name?: unknown;
      code?: unknown;
      message?: unknown;
      driverError?: unknown;
      cause?: unknown;
    };
    if ((typeof name === 'string' && RELEASED_RUNNER.has(name)) || e instanceof DatabaseDownError) return 'lost';
    if (typeof code === 'string') {
      if (NETWORK_CODES.has(code) || LOST_SQLSTATES.has(code) || /^08/.test(code)) return 'lost';
      if (BUSY_SQLSTATES.has(code)) return 'busy';
    }
    if (typeof message === 'string') {
      if (LOST_MESSAGES.test(message)) return 'lost';
      if (BUSY_MESSAGES.test(message)) return 'busy';
    }
    e = driverError ?? cause;
  }
  return null;
}

/** Whether an error means the database cannot serve this request right now: such a request gets 503 and may be retried. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return databaseUnavailability(error) !== null;
}
