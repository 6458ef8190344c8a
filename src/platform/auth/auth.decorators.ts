import { applyDecorators, createParamDecorator, type ExecutionContext, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiForbiddenResponse, ApiSecurity, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ProblemDto } from '../../openapi/problem.dto';
import type { AuthContext, AuthenticatedRequest } from './auth-context';
import { AdminGuard, OptionalSessionGuard, SessionGuard } from './guards';

/** Needs a signed-in user (cookie or bearer session JWT); the guard marks responses no-store. */
export function SignedIn() {
  return applyDecorators(
    UseGuards(SessionGuard),
    ApiBearerAuth(),
    ApiCookieAuth(),
    ApiUnauthorizedResponse({ type: ProblemDto, description: 'Not signed in, or the session was revoked or expired' }),
    ApiForbiddenResponse({ type: ProblemDto, description: 'Cookie-authenticated change without Content-Type: application/json' }),
  );
}

/** Needs a signed-in admin. */
export function AdminOnly() {
  return applyDecorators(
    UseGuards(AdminGuard),
    ApiBearerAuth(),
    ApiCookieAuth(),
    ApiUnauthorizedResponse({ type: ProblemDto, description: 'Not signed in' }),
    ApiForbiddenResponse({ type: ProblemDto, description: 'Not an admin' }),
  );
}

/** The AuthContext a guard established. */
export const Auth = createParamDecorator((_data: unknown, context: ExecutionContext): AuthContext => {
  const auth = context.switchToHttp().getRequest<AuthenticatedRequest>().auth;
  if (!auth) throw new Error('Auth used on a route without an auth guard');
  return auth;
});

/** Reads with the caller's session when there is one (what it adds, such as `voted`, depends on it). */
export function OptionalSession() {
  // `{}` first: OpenAPI's way of saying the credentials are optional (anonymous callers are served too).
  return applyDecorators(UseGuards(OptionalSessionGuard), ApiSecurity({}), ApiBearerAuth(), ApiCookieAuth());
}

/** The session an OptionalSession route found, or null for an anonymous caller. */
export const MaybeAuth = createParamDecorator((_data: unknown, context: ExecutionContext): AuthContext | null => {
  return context.switchToHttp().getRequest<AuthenticatedRequest>().auth ?? null;
});
