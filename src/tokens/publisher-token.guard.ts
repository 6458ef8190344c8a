import { applyDecorators, type CanActivate, type ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { type AuthenticatedRequest, bearerToken } from '../auth/auth-context';
import { ProblemDto } from '../openapi/problem.dto';
import { TokensService } from './tokens.service';

/**
 * A publisher token (never a session). Scope checks happen in the service that acts, because
 * they depend on the slug's current ownership and must be audited there.
 */
@Injectable()
export class PublisherTokenGuard implements CanActivate {
  constructor(private readonly tokens: TokensService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    request.auth = await this.tokens.authenticate(bearerToken(request));
    return true;
  }
}

export function PublisherTokenAuth() {
  return applyDecorators(
    UseGuards(PublisherTokenGuard),
    ApiBearerAuth(),
    ApiUnauthorizedResponse({ type: ProblemDto, description: 'Publisher token missing, malformed, unknown, expired or revoked' }),
  );
}
