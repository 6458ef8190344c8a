import { applyDecorators, type CanActivate, type ExecutionContext, Injectable, SetMetadata, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiNotFoundResponse } from '@nestjs/swagger';
import { notFound } from '../../common/errors/domain-error';
import { ProblemDto } from '../../openapi/problem.dto';
import type { FeatureName } from './feature-flags';
import { FeatureFlagsService } from './feature-flags.service';

const FEATURE_METADATA = 'registry:feature';

/** Refuses with 404 when the route's feature is turned off, before any other guard runs. */
@Injectable()
export class FeatureGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly features: FeatureFlagsService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const name = this.reflector.getAllAndOverride<FeatureName | undefined>(FEATURE_METADATA, [context.getHandler(), context.getClass()]);
    if (name && !(await this.features.isEnabled(name))) {
      throw notFound(`this registry has the "${name}" feature turned off`);
    }
    return true;
  }
}

/**
 * Puts a controller (or one handler) behind a feature flag: while the flag is off its endpoints
 * answer 404. On a controller, the check runs before the guards of its handlers (sign-in, admin),
 * so a turned-off feature looks the same to every caller. The module using it imports SiteModule.
 */
export function Feature(name: FeatureName) {
  return applyDecorators(
    SetMetadata(FEATURE_METADATA, name),
    UseGuards(FeatureGuard),
    ApiNotFoundResponse({ type: ProblemDto, description: `Also when the "${name}" feature is turned off` }),
  );
}
