import type { Server } from 'node:http';

/** How often connections that finished their response are closed while draining. */
const IDLE_SWEEP_MS = 100;

export type DrainOutcome = 'drained' | 'cut';

/**
 * Stops accepting connections and lets the requests under way finish: keep-alive connections
 * are closed as soon as they are idle, so clients reconnect elsewhere, and whatever is still
 * running after `graceMs` is cut. Resolves once the server has no connection left.
 */
export function drainHttp(server: Server, graceMs: number): Promise<DrainOutcome> {
  return new Promise((resolve) => {
    let outcome: DrainOutcome = 'drained';
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    const deadline = setTimeout(() => {
      outcome = 'cut';
      server.closeAllConnections();
    }, graceMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(deadline);
      resolve(outcome);
    });
    server.closeIdleConnections();
  });
}
