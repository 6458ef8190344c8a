/**
 * Whether an error means the database cannot be reached right now (down, restarting, refusing
 * connections), as opposed to a bad query: such a request gets 503 and may be retried.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections; class 08 is connection exceptions. */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** node-postgres and pg-pool say these without a code. */
const MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable/;

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 4; depth += 1) {
    const { code, message, driverError, cause } = e as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATES.has(code) || /^08/.test(code))) return true;
    if (typeof message === 'string' && MESSAGES.test(message)) return true;
    e = driverError ?? cause;
  }
  return false;
}
