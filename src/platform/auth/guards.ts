import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { DomainError, forbidden } from '../../common/errors/domain-error';
import type { Response } from 'express';
import type { AuthenticatedRequest } from './auth-context';
import { SessionService } from './session.service';

/** Anything behind authentication is per-user: never cached by the browser or a proxy. */
function noStore(context: ExecutionContext): void {
  context.switchToHttp().getResponse<Response>().setHeader('Cache-Control', 'no-store');
}

/** A signed-in user (session cookie or bearer session JWT). */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(private readonly sessions: SessionService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    noStore(context);
    request.auth = await this.sessions.authenticate(request);
    return true;
  }
}

/** A signed-in admin. */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(private readonly sessions: SessionService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    noStore(context);
    const auth = await this.sessions.authenticate(request);
    if (auth.user.role !== 'admin') throw forbidden('this needs the admin role');
    request.auth = auth;
    return true;
  }
}

/**
 * A session when the caller has a good one, anonymous otherwise: a public read never fails because
 * a cookie went stale or a publisher token came along; it just reads as anonymous.
 */
@Injectable()
export class OptionalSessionGuard implements CanActivate {
  constructor(private readonly sessions: SessionService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    try {
      request.auth = await this.sessions.authenticate(request);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      request.auth = undefined;
    }
    return true;
  }
}
