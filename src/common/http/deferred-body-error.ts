import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';

/**
 * Routes whose answer does not depend on the body in some state: a closed install wizard answers
 * 410 whatever was sent. For these, an unreadable body (not JSON, malformed, too large) is kept
 * back by the body middleware and raised by `BodyReadGuard` after the route's own guards, instead
 * of being answered before routing.
 */
const DEFERRING_PREFIXES: readonly string[] = ['/api/init/'];

const DEFERRED = Symbol('deferredBodyError');
type WithDeferred = Request & { [DEFERRED]?: unknown };

/** Routing is case-sensitive (app.factory.ts), so the path is compared as routed. */
export function defersBodyErrors(path: string): boolean {
  return DEFERRING_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/** Keeps a body error for later; the body stays unread (`undefined`). */
export function deferBodyError(request: Request, error: unknown): void {
  (request as WithDeferred)[DEFERRED] ??= error;
  request.body = undefined;
}

/**
 * Raises a body error that the body middleware deferred. Placed after the guards that may answer
 * without the body (`@UseGuards(WizardOpenGuard, BodyReadGuard)`), and before the ValidationPipe,
 * which runs after every guard.
 */
@Injectable()
export class BodyReadGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<WithDeferred>();
    if (request[DEFERRED] !== undefined) throw request[DEFERRED];
    return true;
  }
}
