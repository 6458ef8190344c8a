import { applyDecorators, type CanActivate, type ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { type AuthenticatedRequest, bearerToken } from '../../platform/auth/auth-context';
import { ProblemDto } from '../../openapi/problem.dto';
import { RateLimitGate } from '../../platform/rate-limit/rate-limit-gate';
import { TokensService } from './tokens.service';

/**
 * A publisher token (never a session). Scope checks happen in the service that acts, because
 * they depend on the slug's current ownership and must be audited there. Until the token
 * verifies here, the request counts against the client address (the rate-limit middleware);
 * once it has, it counts against the token's own limit instead.
 */
@Injectable()
export class PublisherTokenGuard implements CanActivate {
  constructor(
    private readonly tokens: TokensService,
    private readonly limits: RateLimitGate,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const auth = await this.tokens.authenticate(bearerToken(request));
    await this.limits.tokenVerified(request);
    request.auth = auth;
    return true;
  }
}

export function PublisherTokenAuth() {
  return applyDecorators(
    UseGuards(PublisherTokenGuard),
    ApiBearerAuth(),
    ApiUnauthorizedResponse({ type: ProblemDto, description: 'Publisher token missing, malformed, unknown, expired or revoked' }),
    ApiTooManyRequestsResponse({
      type: ProblemDto,
      description: 'Over the publish limit of the token, or (token not verified) of the client address; Retry-After says when to try again',
    }),
  );
}
