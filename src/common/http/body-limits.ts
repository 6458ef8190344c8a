import type { IncomingMessage } from 'node:http';
import { json, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { deferBodyError, defersBodyErrors } from './deferred-body-error';

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * JSON body limits by path prefix, first match wins. A push carries its manifest (64 KiB), an
 * attestation (64 KiB) and up to 32 assets; forges' release payloads carry release notes (GitHub
 * allows 125,000 characters) and asset lists; admins write pages of up to 100,000 characters.
 * Everything else (tokens, votes, settings) is a few fields.
 */
export const BODY_LIMITS: readonly { prefix: string; bytes: number }[] = [
  { prefix: '/api/webhooks', bytes: 2 * MiB },
  { prefix: '/api/publish', bytes: 512 * KiB },
  { prefix: '/api/admin', bytes: 1 * MiB },
];
export const DEFAULT_BODY_LIMIT_BYTES = 64 * KiB;

export function bodyLimitFor(path: string): number {
  return BODY_LIMITS.find(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`))?.bytes ?? DEFAULT_BODY_LIMIT_BYTES;
}

/** `64 KiB`, `1 MiB`: how a limit is stated in a 413. */
export function describeBytes(bytes: number): string {
  if (bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes % KiB === 0) return `${bytes / KiB} KiB`;
  return `${bytes} bytes`;
}

/** Raw bytes are kept (req.rawBody) for webhook signature checks: HMAC over the exact body. */
function keepRawBody(req: IncomingMessage, _res: unknown, buffer: Buffer): void {
  (req as IncomingMessage & { rawBody?: Buffer }).rawBody = buffer;
}

/**
 * One JSON parser per limit, chosen by the request's path. A parse error on a route that defers
 * body errors (common/http/deferred-body-error) is kept for its BodyReadGuard.
 */
export function jsonBodyParsers(): RequestHandler {
  const parsers = new Map<number, RequestHandler>();
  for (const bytes of [DEFAULT_BODY_LIMIT_BYTES, ...BODY_LIMITS.map((l) => l.bytes)]) {
    if (!parsers.has(bytes)) parsers.set(bytes, json({ limit: bytes, verify: keepRawBody }));
  }
  return (req: Request, res: Response, next: NextFunction) =>
    parsers.get(bodyLimitFor(req.path))!(req, res, (error?: unknown) => {
      if (error !== undefined && error !== null && defersBodyErrors(req.path)) {
        deferBodyError(req, error);
        next();
        return;
      }
      next(error as Error | undefined);
    });
}
