import { parseAllowedHost } from '../../lib/net/address-policy';
import { AssetFetchError, networkFailure } from './fetch-error';
import { LookupFunction, resolveTarget, systemLookup } from './fetch-target';
import { FetchTimers, systemTimers } from './fetch-timers';
import { BodySink, exchange } from './http-exchange';

/**
 * The fetch policy (docs/decisions.md#one-ingest-for-push-and-webhook-with-a-guarded-fetch), shared
 * by asset hashing and bounded text fetches.
 */
export interface GuardedFetchOptions {
  /** Hard cap on body bytes read at all; past it the fetch fails with 'too-large'. */
  maxBytes: number;
  /** FETCH_ALLOW_HOSTS entries, `host` (any port) or `host:port`: these may use http and private addresses. */
  allowHosts: readonly string[];
  connectTimeoutMs: number;
  /** No bytes for this long (waiting for the response head included) fails with 'timeout'. */
  idleTimeoutMs: number;
  /** Deadline for the whole fetch, redirects and DNS included. */
  totalTimeoutMs: number;
  maxRedirects: number;
  /** Defaults to `dns.lookup`. */
  lookup?: LookupFunction;
  signal?: AbortSignal;
  /** Defaults to the system clock and timers. */
  timers?: FetchTimers;
  /** Extra request headers; sent to the first URL's origin only, never after a redirect elsewhere. */
  headers?: Readonly<Record<string, string>>;
  /**
   * POSTs this body instead of a GET. Never re-sent to a redirect's target: give `maxRedirects: 0`
   * (a redirect is then a 'too-many-redirects' failure).
   */
  body?: Buffer;
  /**
   * A 4xx answer is read like a 2xx (bounded the same) and reported with its status, for a caller
   * that passes another server's refusal on (a mirror's log routes); otherwise it is a 'status' failure.
   */
  readClientErrors?: boolean;
  /**
   * Told the final answer's declared Content-Length (when it declares one) before any of its body
   * is read, so a caller accounting memory can refuse it (by aborting `signal`) for nothing.
   */
  onBodyLength?: (declared: number) => void;
}

export interface FetchedBody {
  url: string;
  /** After redirects. */
  finalUrl: string;
  size: number;
  contentType: string;
  /** The final answer's status (2xx; or 4xx with `readClientErrors`). */
  status: number;
}

function parseUrl(text: string, base?: URL): URL {
  try {
    return new URL(text, base);
  } catch (error) {
    const message = base ? `redirect from ${base.hostname} to an invalid URL` : 'not a valid absolute URL';
    throw new AssetFetchError('bad-url', message, { url: base?.href ?? text, cause: error });
  }
}

/**
 * GETs `url` under the policy, vetting every redirect hop afresh, and streams the final body into
 * `sink`. Every failure is an AssetFetchError reported against `url` as given.
 */
export async function guardedFetch(url: string, options: GuardedFetchOptions, sink: BodySink): Promise<FetchedBody> {
  const first = parseUrl(url);
  const host = first.hostname;
  const allowed = options.allowHosts.map(parseAllowedHost);
  const timers = options.timers ?? systemTimers;
  const lookup = options.lookup ?? systemLookup;
  const controller = new AbortController();
  const onCallerAbort = () => controller.abort(new AssetFetchError('aborted', `fetch from ${host} was cancelled`, { url }));
  if (options.signal?.aborted) onCallerAbort();
  options.signal?.addEventListener('abort', onCallerAbort, { once: true });
  const deadline = timers.setTimeout(
    () =>
      controller.abort(new AssetFetchError('timeout', `fetch from ${host} did not finish within ${options.totalTimeoutMs} ms`, { url })),
    options.totalTimeoutMs,
  );
  const limits = { ...options, timers, signal: controller.signal };
  try {
    let current = first;
    for (let redirects = 0; ; redirects++) {
      const target = await resolveTarget(current, { allowed, lookup }, controller.signal);
      // Credentials stay with the origin they were meant for, whatever a redirect says.
      const headers = current.origin === first.origin ? options.headers : undefined;
      const outcome = await exchange(target, { ...limits, headers, body: redirects === 0 ? options.body : undefined }, sink);
      if (outcome.kind === 'body')
        return { url, finalUrl: current.href, size: outcome.size, contentType: outcome.contentType, status: outcome.status };
      if (redirects >= options.maxRedirects) {
        throw new AssetFetchError('too-many-redirects', `more than ${options.maxRedirects} redirects (last from ${current.hostname})`, {
          url,
        });
      }
      current = parseUrl(outcome.location, current);
    }
  } catch (error) {
    throw error instanceof AssetFetchError ? error.forUrl(url) : networkFailure(host, url, error);
  } finally {
    timers.clearTimeout(deadline);
    options.signal?.removeEventListener('abort', onCallerAbort);
  }
}
