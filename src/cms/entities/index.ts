import { BrandingEntity } from './branding.entity';
import { FeatureFlagEntity } from './feature-flag.entity';
import { PageEntity } from './page.entity';
import { SiteLanguagesEntity } from './site-languages.entity';

/** The tables this feature owns; src/database/entities.ts gathers every feature's list. */
export const CMS_ENTITIES = [PageEntity, BrandingEntity, SiteLanguagesEntity, FeatureFlagEntity];
