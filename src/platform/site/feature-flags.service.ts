import { Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service';
import type { AuditActor } from '../audit/audit.service';
import type { FeaturesDto, UpdateFeaturesDto } from './dto/features.dto';
import { type FeatureFlagState, type FeatureName, featureFlagState } from './feature-flags';
import { FeatureFlagsRepository } from './feature-flags.repository';

/**
 * The feature flags' state. Read from the database on every check (one primary-key-sized table),
 * so a change takes effect at once on every instance without a cache to invalidate.
 */
@Injectable()
export class FeatureFlagsService {
  constructor(
    private readonly flags: FeatureFlagsRepository,
    private readonly audit: AuditService,
  ) {}

  async state(): Promise<FeatureFlagState> {
    return featureFlagState(await this.flags.all());
  }

  async isEnabled(name: FeatureName): Promise<boolean> {
    return (await this.state())[name];
  }

  async publicFlags(): Promise<FeaturesDto> {
    return { flags: await this.state() };
  }

  async update(input: UpdateFeaturesDto, actor: AuditActor): Promise<FeaturesDto> {
    const after = await this.flags.withFlagsLocked(async (manager) => {
      const before = featureFlagState(await this.flags.all(manager));
      await this.flags.set(input.flags, manager);
      const after = featureFlagState(await this.flags.all(manager));
      await this.audit.record({ action: 'features.update', actor, details: { before, after } }, manager);
      return after;
    });
    return { flags: after };
  }
}
