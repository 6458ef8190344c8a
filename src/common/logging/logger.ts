import type { LoggerService } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type DestinationStream, type Logger } from 'pino';
import pinoHttp from 'pino-http';
import type { LogLevel } from '../../config/config.types';

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
  'res.headers["set-cookie"]',
];

const SECRET_QUERY_KEYS = new Set(['code', 'state', 'token', 'access_token', 'client_secret']);

/** Query parameters such as OAuth codes are credentials too. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const key of [...params.keys()]) if (SECRET_QUERY_KEYS.has(key.toLowerCase())) params.set(key, '[Redacted]');
  return `${url.slice(0, q)}?${params.toString()}`;
}

export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: { paths: REDACTED_PATHS, censor: '[Redacted]' },
      serializers: { err: pino.stdSerializers.err },
    },
    destination,
  );
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Structured access log with a request id (taken from X-Request-Id when sane), echoed back. */
export function httpLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId(req: IncomingMessage, res: ServerResponse) {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    serializers: {
      req(req: { id: string; method: string; url: string; headers: Record<string, unknown>; remoteAddress?: string }) {
        return { id: req.id, method: req.method, url: redactUrl(req.url), headers: req.headers, remoteAddress: req.remoteAddress };
      },
      res(res: { statusCode: number; headers: Record<string, unknown> }) {
        return { statusCode: res.statusCode, headers: res.headers };
      },
    },
    customLogLevel(_req, res, error) {
      if (error || res.statusCode >= 500) return 'error';
      return 'info';
    },
  });
}

/** Nest's logger interface on top of pino, so framework messages are structured too. */
export class PinoLoggerService implements LoggerService {
  constructor(private readonly logger: Logger) {}

  private write(level: 'info' | 'error' | 'warn' | 'debug' | 'trace', message: unknown, context?: unknown) {
    const ctx = typeof context === 'string' ? { context } : {};
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
