import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig, ForgeInstanceConfig } from '../config/config.types';

/** The configured forge instances (FORGES), by name. */
@Injectable()
export class ForgeRegistry {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  all(): readonly ForgeInstanceConfig[] {
    return this.config.forges;
  }

  byName(name: string): ForgeInstanceConfig | null {
    return this.config.forges.find((forge) => forge.name === name) ?? null;
  }

  /** Instances that can sign users in (OAuth credentials configured). */
  signInCapable(): ForgeInstanceConfig[] {
    return this.config.forges.filter((forge) => forge.clientId && forge.clientSecret);
  }
}
