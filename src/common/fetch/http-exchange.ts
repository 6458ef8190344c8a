import { ClientRequest, IncomingMessage, request as httpRequest, RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { LookupFunction as SocketLookupFunction, Socket } from 'node:net';
import { AssetFetchError, networkFailure } from './fetch-error';
import { checkConnectedPeer, FetchTarget } from './fetch-target';
import { FetchTimers, IdleWatch, watchIdle } from './fetch-timers';
import { rateLimitWaitMs } from './rate-limit';

export const USER_AGENT = 'plugin-registry/0.1 (+asset-fetch)';

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

export interface ExchangeLimits {
  maxBytes: number;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
  timers: FetchTimers;
  /** Aborted by the caller, the total deadline or a failed sibling; its reason is the error to report. */
  signal: AbortSignal;
  /** Request headers beyond the fixed ones (an API's Accept, a user's Authorization). */
  headers?: Readonly<Record<string, string>>;
  /** A POST with this body (sent with its Content-Length); a GET when absent. */
  body?: Buffer;
  /** A 4xx answer's body is read and reported with its status instead of failing (GuardedFetchOptions). */
  readClientErrors?: boolean;
  /** Told the body's declared Content-Length before any of it is read (GuardedFetchOptions). */
  onBodyLength?: (declared: number) => void;
}

/** Receives the body as it streams; `bytesSoFar` includes `chunk`, a buffer of its own. */
export type BodySink = (chunk: Buffer, bytesSoFar: number) => void;

export type ExchangeOutcome = { kind: 'redirect'; location: string } | { kind: 'body'; size: number; contentType: string; status: number };

/**
 * One GET (or a POST with `limits.body`) over a fresh connection (no agent pooling, no proxy variables) to the vetted addresses
 * of `target`. A redirect is reported, not followed: the caller vets the next hop. The request is
 * only written once the connected peer has passed the final address check.
 */
export function exchange(target: FetchTarget, limits: ExchangeLimits, sink: BodySink): Promise<ExchangeOutcome> {
  const { timers, signal } = limits;
  const host = target.url.hostname;
  const url = target.url.href;
  return new Promise<ExchangeOutcome>((resolve, reject) => {
    let settled = false;
    let request: ClientRequest | undefined;
    let response: IncomingMessage | undefined;
    let idle: IdleWatch | undefined;
    let connectTimer: unknown = undefined;

    const settle = () => {
      settled = true;
      timers.clearTimeout(connectTimer);
      idle?.stop();
      signal.removeEventListener('abort', onAbort);
      // Destroying ends the socket at once: nothing more is read from a refused, failed or
      // redirecting server, and a finished one has nothing left to send.
      response?.destroy();
      request?.destroy();
    };
    const fail = (error: AssetFetchError) => {
      if (settled) return;
      settle();
      reject(error);
    };
    const succeed = (outcome: ExchangeOutcome) => {
      if (settled) return;
      settle();
      resolve(outcome);
    };
    const truncated = (size: number) =>
      new AssetFetchError('network', `connection to ${host} closed after ${size} bytes, before the response was complete`, { url });
    function onAbort() {
      fail(
        signal.reason instanceof AssetFetchError
          ? signal.reason
          : new AssetFetchError('aborted', `fetch from ${host} was cancelled`, { url }),
      );
    }

    const onResponse = (incoming: IncomingMessage) => {
      response = incoming;
      idle?.touch();
      const status = incoming.statusCode ?? 0;
      const location = incoming.headers.location;
      if (REDIRECT_STATUSES.has(status) && location) return succeed({ kind: 'redirect', location });
      const readable = (status >= 200 && status <= 299) || (limits.readClientErrors === true && status >= 400 && status <= 499);
      if (!readable) {
        const retryAfterMs = rateLimitWaitMs(incoming.headers, Date.now()) ?? undefined;
        return fail(new AssetFetchError('status', `HTTP ${status} from ${host}`, { url, status, retryAfterMs }));
      }
      const declared = Number(incoming.headers['content-length'] ?? Number.NaN);
      if (Number.isSafeInteger(declared) && declared >= 0) limits.onBodyLength?.(declared);
      // The caller may have aborted on hearing the length: then nothing of the body is read.
      if (settled) return;
      const contentType = incoming.headers['content-type'] ?? 'application/octet-stream';
      let size = 0;
      incoming.on('data', (chunk: Buffer) => {
        if (settled) return;
        idle?.touch();
        size += chunk.length;
        if (size > limits.maxBytes) {
          return fail(new AssetFetchError('too-large', `response from ${host} is larger than the ${limits.maxBytes}-byte limit`, { url }));
        }
        sink(chunk, size);
      });
      // `complete` is false when the connection closed before the declared length or the final
      // chunk arrived: a truncated body is not the asset, whatever it hashes to.
      incoming.on('end', () => (incoming.complete ? succeed({ kind: 'body', size, contentType, status }) : fail(truncated(size))));
      incoming.on('error', () => fail(truncated(size)));
      incoming.on('close', () => fail(truncated(size)));
    };

    const onSocket = (socket: Socket) => {
      socket.once('connect', () => {
        const refusal = checkConnectedPeer(target, socket.remoteAddress);
        if (refusal) return fail(refusal);
        request?.end(limits.body);
      });
      socket.once(target.secure ? 'secureConnect' : 'connect', () => {
        if (settled) return;
        timers.clearTimeout(connectTimer);
        idle = watchIdle(timers, limits.idleTimeoutMs, () =>
          fail(new AssetFetchError('timeout', `timed out after ${limits.idleTimeoutMs} ms without data from ${host}`, { url })),
        );
      });
    };

    if (signal.aborted) return onAbort();
    try {
      request = (target.secure ? httpsRequest : httpRequest)(requestOptions(target, limits.headers, limits.body));
    } catch (error) {
      return fail(networkFailure(host, url, error));
    }
    request.on('socket', onSocket);
    request.on('response', onResponse);
    request.on('error', (error) => {
      // Bytes past a complete response (a server sending more than its Content-Length) make the
      // parser complain after the body is already whole; the asset is what the framing said.
      if (response?.complete) return;
      fail(networkFailure(host, url, error));
    });
    connectTimer = timers.setTimeout(
      () => fail(new AssetFetchError('timeout', `connecting to ${host} timed out after ${limits.connectTimeoutMs} ms`, { url })),
      limits.connectTimeoutMs,
    );
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function requestOptions(
  target: FetchTarget,
  extra: Readonly<Record<string, string>> | undefined,
  body: Buffer | undefined,
): RequestOptions {
  const length = body ? { 'content-length': String(body.length) } : {};
  return {
    method: body ? 'POST' : 'GET',
    host: target.hostname,
    port: target.port,
    path: `${target.url.pathname}${target.url.search}`,
    agent: false,
    lookup: vettedLookup(target),
    headers: { 'user-agent': USER_AGENT, 'accept-encoding': 'identity', accept: '*/*', ...lowercaseKeys(extra), ...length },
  };
}

function lowercaseKeys(headers: Readonly<Record<string, string>> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
}

/** Answers the socket's resolution with the addresses already vetted, never asking DNS again. */
export function vettedLookup(target: FetchTarget): SocketLookupFunction {
  return (_hostname, options, callback) => {
    const addresses = target.addresses.map(({ address, family }) => ({ address, family }));
    process.nextTick(() => {
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
