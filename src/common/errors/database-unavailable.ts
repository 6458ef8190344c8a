/**
 * Whether an error means the database cannot be reached right now (down, restarting, refusing
 * connections), as opposed to a bad query: such a request gets 503 and may be retried.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections; class 08 is connection exceptions. */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** node-postgres and pg-pool say these without a code. */
const MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable/;
/**
 * TypeORM gives a transaction's runner back to the pool when its connection dies under it: every
 * statement after that, the rollback included, fails with this.
 */
const RELEASED_RUNNER = 'QueryRunnerAlreadyReleasedError';

/** Refused without trying: this instance knows the database is down and is probing for it. */
export class DatabaseDownError extends Error {
  override readonly name = 'DatabaseDownError';
  readonly code = 'EDATABASEDOWN';

  constructor(cause: string) {
    super(`the database is unavailable (${cause}); not connecting until it answers again`);
  }
}

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 4; depth += 1) {
    const { name, code, message, driverError, cause } = e as { name?: unknown; code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
    if (name === RELEASED_RUNNER || e instanceof DatabaseDownError) return true;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATES.has(code) || /^08/.test(code))) return true;
    if (typeof message === 'string' && MESSAGES.test(message)) return true;
    e = driverError ?? cause;
  }
  return false;
}
