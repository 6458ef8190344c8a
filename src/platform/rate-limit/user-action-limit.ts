import {
  applyDecorators,
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  SetMetadata,
  UseInterceptors,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { from, type Observable, switchMap } from 'rxjs';
import type { AuthenticatedRequest } from '../auth/auth-context';
import { ProblemDto } from '../../openapi/problem.dto';
import { RateLimitGate } from './rate-limit-gate';
import type { UserActionBucket } from './rate-limit-rules';

const USER_ACTION_BUCKET = 'rate-limit:user-action';

/**
 * Counts the signed-in caller's action against its per-user limit before the handler runs.
 * An interceptor, so it always runs after every guard (the session is known) whatever the order
 * of the decorators, and before validation: malformed requests count too.
 */
@Injectable()
export class UserActionLimitInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly gate: RateLimitGate,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const bucket = this.reflector.get<UserActionBucket>(USER_ACTION_BUCKET, context.getHandler());
    const auth = context.switchToHttp().getRequest<AuthenticatedRequest>().auth;
    if (!auth) throw new Error('UserActionLimit used on a route without a session guard');
    return from(this.gate.userAction(bucket, auth.user.id)).pipe(switchMap(() => next.handle()));
  }
}

/** A signed-in action limited per user (settings `ratelimit.*`); 429 with Retry-After past it. */
export function UserActionLimit(bucket: UserActionBucket) {
  return applyDecorators(
    SetMetadata(USER_ACTION_BUCKET, bucket),
    UseInterceptors(UserActionLimitInterceptor),
    ApiTooManyRequestsResponse({
      type: ProblemDto,
      description: 'Over your per-user limit for this action; Retry-After says when to try again',
    }),
  );
}
