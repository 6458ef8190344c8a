import type { LoggerService } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type DestinationStream, type Logger } from 'pino';
import pinoHttp from 'pino-http';
import type { LogFormat, LogLevel } from '../../config/config.types';
import { prettyDestination } from './pretty';
import { currentRequestId, requestIdFor } from './request-context';
import { UnavailableSummary } from './unavailable-summary';

/** Header values that carry credentials; they never reach a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-hub-signature"]',
  'req.headers["x-hub-signature-256"]',
  'req.headers["x-gitlab-token"]',
  'req.headers["x-gitea-signature"]',
  'req.headers["x-forgejo-signature"]',
  'req.headers["x-gogs-signature"]',
  'req.headers["x-registry-init-token"]',
  'req.headers["x-registry-internal"]',
  'res.headers["set-cookie"]',
];

/**
 * Query keys whose values are secrets, compared lower-cased with `_` and `-` removed (`client_secret`, `Client-Secret`, `clientSecret` alike).
 * Logins too: people type their password into the login field.
 */
const SECRET_QUERY_KEYS = new Set([
  'code',
  'state',
  'token',
  'accesstoken',
  'clientsecret',
  'secret',
  'password',
  'currentpassword',
  'confirm',
  'login',
  'username',
]);

function secretQueryKey(key: string): boolean {
  return SECRET_QUERY_KEYS.has(key.toLowerCase().replace(/[_-]/g, ''));
}

/** Query parameters such as OAuth codes are credentials too, and so is a password a form sent as a GET by mistake. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const key of [...params.keys()]) if (secretQueryKey(key)) params.set(key, '[Redacted]');
  return `${url.slice(0, q)}?${params.toString()}`;
}

/** `auto` decides now: readable lines when stdout is a terminal, JSON lines otherwise. */
export function resolveLogFormat(format: LogFormat, stdoutIsTty = process.stdout.isTTY === true): 'json' | 'pretty' {
  if (format === 'auto') return stdoutIsTty ? 'pretty' : 'json';
  return format;
}

/**
 * The process's logger: JSON lines with level names (`"level":"info"`), or readable lines for a
 * terminal. Every line written while a request is served carries that request's id (`reqId`).
 */
export function createLogger(level: LogLevel, destination?: DestinationStream, format: 'json' | 'pretty' = 'json'): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: { paths: REDACTED_PATHS, censor: '[Redacted]' },
      serializers: { err: pino.stdSerializers.err },
      formatters: { level: (label) => ({ level: label }) },
      mixin() {
        const reqId = currentRequestId();
        return reqId ? { reqId } : {};
      },
    },
    format === 'pretty' ? prettyDestination(destination ?? process.stdout) : destination,
  );
}

/** What the problem filter leaves on the response for the access line: the failure, when it was expected. */
export interface LoggedProblem {
  code: string;
  detail: string;
}

function expectedProblem(res: ServerResponse): LoggedProblem | undefined {
  return (res as ServerResponse & { locals?: { expectedProblem?: LoggedProblem } }).locals?.expectedProblem;
}

/** pino-http passes a made-up error when the response is a 5xx and nothing was thrown. */
function isStatusOnlyFailure(res: ServerResponse & { err?: unknown }, error: Error): boolean {
  return !res.err && error?.message === `failed with status code ${res.statusCode}`;
}

/** What the access log needs from the application; every part may be left out (tests, tools). */
export interface AccessLogOptions {
  /**
   * Whether a request is one of this instance's own loopback calls (the web pages render from
   * the API): its access line is at debug, so a page view logs one info line, its own.
   */
  isInternal?: (req: IncomingMessage) => boolean;
  /** Where 503s are summarised; give the same one to every access log of the process. */
  unavailable?: UnavailableSummary;
}

/** The summary every access log of a process shares (503 warnings go through it). */
export function unavailableSummary(logger: Logger): UnavailableSummary {
  return new UnavailableSummary((fields, message) => logger.warn(fields, message));
}

/**
 * The level of an access line that threw nothing. A 503 is the service saying it cannot answer
 * now (the database down, readiness probed every few seconds): its access line stays at info
 * and the cause is a warning once a minute (UnavailableSummary), not one warning per request.
 */
function accessLevel(
  req: IncomingMessage & { path?: string },
  res: ServerResponse,
  options: AccessLogOptions,
): 'debug' | 'info' | 'warn' | 'error' {
  const problem = expectedProblem(res);
  if (res.statusCode === 503) {
    const probe = (req.path ?? req.url ?? '').startsWith('/health');
    const cause = problem?.code ?? (probe ? 'not-ready' : 'unavailable');
    options.unavailable?.note(
      cause,
      problem?.detail ?? (probe ? 'the readiness probe answers 503 (see GET /health/ready)' : 'a request was answered 503'),
    );
    return options.isInternal?.(req) ? 'debug' : 'info';
  }
  // An upstream failure the service expected and reported (an asset 404, a forge refusing)
  // is one warning line with its reason, not an error with a stack.
  if (problem) return 'warn';
  if (res.statusCode >= 500) return 'error';
  return options.isInternal?.(req) ? 'debug' : 'info';
}

/**
 * The access log: one line per request, with the request id, method, path (credentials in the
 * query redacted), status, length and duration; no request or response headers (no cookie,
 * no authorization, no CSP). The id is taken from X-Request-Id when sane and echoed back.
 */
export function httpLogger(logger: Logger, options: AccessLogOptions = {}) {
  return pinoHttp({
    logger,
    // The request context middleware has already chosen (and echoed) the id.
    genReqId: (req: IncomingMessage) => currentRequestId() ?? requestIdFor(req.headers),
    // The access line names its request as `req.id`; the mixin's copy would repeat it.
    customProps: (_req, res) => {
      const problem = expectedProblem(res);
      return problem ? { problem } : {};
    },
    serializers: {
      req(req: { id: string; method: string; url: string }) {
        return { id: req.id, method: req.method, url: redactUrl(req.url) };
      },
      res(res: { statusCode: number; headers?: Record<string, unknown> }) {
        return { statusCode: res.statusCode, ...responseLength(res.headers?.['content-length']) };
      },
    },
    customLogLevel(req, res, error) {
      if (error && !isStatusOnlyFailure(res, error)) return 'error';
      return accessLevel(req, res, options);
    },
    // For a 5xx without a thrown error pino-http makes up "failed with status code N", whose
    // stack points into pino-http itself. Only a real error is logged; the status is in `res`.
    customErrorObject(_req, res, error, fields) {
      if (isStatusOnlyFailure(res, error)) {
        const { err: _madeUp, ...rest } = fields as Record<string, unknown>;
        return rest;
      }
      return fields;
    },
    customErrorMessage(_req, res, error) {
      const problem = expectedProblem(res);
      if (problem) return `request answered ${res.statusCode}: ${problem.detail}`;
      return isStatusOnlyFailure(res, error) ? `request answered ${res.statusCode}` : 'request errored';
    },
  });
}

function responseLength(header: unknown): { length?: number } {
  const length = typeof header === 'number' ? header : typeof header === 'string' ? Number(header) : NaN;
  return Number.isSafeInteger(length) ? { length } : {};
}

/**
 * The access line of a response answered before pino-http runs (a response-cache hit, a
 * rate-limit refusal, the catalogue lane): the same fields and request id, at a fraction of the
 * cost on the hot path.
 */
export function compactAccessLog(logger: Logger, note: Record<string, unknown>, options: AccessLogOptions = {}) {
  return (req: IncomingMessage & { originalUrl?: string }, res: ServerResponse, startedAt: bigint): void => {
    const level = accessLevel(req, res, options);
    if (!logger.isLevelEnabled(level)) return;
    const responseTime = Math.round(Number(process.hrtime.bigint() - startedAt) / 1e6);
    // The id the request context echoed: a 'finish' listener may run outside the request's context.
    const id = res.getHeader('x-request-id') ?? currentRequestId();
    const length = responseLength(res.getHeader('content-length'));
    logger[level](
      {
        req: { id, method: req.method, url: redactUrl(req.originalUrl ?? req.url ?? '') },
        res: { statusCode: res.statusCode, ...length },
        responseTime,
        ...note,
      },
      'request completed',
    );
  };
}

/** Nest's start-up chatter (every module loaded, every route mapped): useful when debugging only. */
const FRAMEWORK_CHATTER = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

/** Nest's logger interface on top of pino, so framework messages are structured too. */
export class PinoLoggerService implements LoggerService {
  constructor(private readonly logger: Logger) {}

  private write(level: 'info' | 'error' | 'warn' | 'debug' | 'trace', message: unknown, context?: unknown) {
    const ctx = typeof context === 'string' ? { context } : {};
    if (level === 'info' && typeof context === 'string' && FRAMEWORK_CHATTER.has(context)) level = 'debug';
    if (typeof message === 'object' && message !== null) this.logger[level]({ ...ctx, ...(message as object) });
    else this.logger[level](ctx, String(message));
  }

  log(message: unknown, context?: unknown) {
    this.write('info', message, context);
  }
  error(message: unknown, _trace?: unknown, context?: unknown) {
    this.write('error', message, context);
  }
  warn(message: unknown, context?: unknown) {
    this.write('warn', message, context);
  }
  debug(message: unknown, context?: unknown) {
    this.write('debug', message, context);
  }
  verbose(message: unknown, context?: unknown) {
    this.write('trace', message, context);
  }
}
