import { BrandingEntity } from './branding.entity';
import { FeatureFlagEntity } from './feature-flag.entity';
import { SiteLanguagesEntity } from './site-languages.entity';

/** The tables this feature owns; src/database/entities.ts gathers every feature's list. */
export const SITE_ENTITIES = [BrandingEntity, SiteLanguagesEntity, FeatureFlagEntity];
