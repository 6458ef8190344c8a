import type { Server } from 'node:http';
import type { AppConfig } from '../../config/config.types';

/**
 * A client gets HTTP_REQUEST_TIMEOUT_MS to send a whole request and HTTP_HEADERS_TIMEOUT_MS of it
 * for the headers (slow-loris defence); Node answers 408 and closes. Handlers are not cut short: a
 * synchronous push's fetch and hash has its own bounds.
 *
 * An idle keep-alive connection is kept HTTP_KEEP_ALIVE_TIMEOUT_MS (Node's own 5 s is shorter
 * than the idle timeout of most proxies and load balancers, 60 s: one reusing a connection the
 * server has just closed gets "other side closed" mid-request). Both request timeouts count from
 * a request's first byte, never the idle time before it (Node 18 and later), so the headers
 * timeout need not exceed the keep-alive one, as the old advice has it.
 */
export function setConnectionTimeouts(
  server: Server,
  config: Pick<AppConfig, 'httpRequestTimeoutMs' | 'httpHeadersTimeoutMs' | 'httpKeepAliveTimeoutMs'>,
): void {
  server.requestTimeout = config.httpRequestTimeoutMs;
  server.headersTimeout = config.httpHeadersTimeoutMs;
  server.keepAliveTimeout = config.httpKeepAliveTimeoutMs;
}
