import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { KindsService } from '../kinds/kinds.service';
import { manifestJsonSchema } from '../../lib/manifest';

@Injectable()
export class SchemasService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly kinds: KindsService,
  ) {}

  /** Built from the same rule table as the validator, with this registry's kinds and extension fields. */
  async manifest(): Promise<Record<string, unknown>> {
    const context = await this.kinds.validationContext();
    return manifestJsonSchema({ ...context, id: `${this.config.baseUrl}/schemas/manifest.json` });
  }
}
