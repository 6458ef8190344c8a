import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import type { AuditActor } from '../audit/audit.service';
import { SettingsService } from '../settings/settings.service';
import { toBrandingDto } from './branding.mapper';
import { type BrandingFields, BrandingRepository } from './branding.repository';
import type { BrandingDto, UpdateBrandingDto } from './dto/branding.dto';

const NO_BRANDING: BrandingFields = { siteName: null, logoUrl: null, primaryColor: null, links: [] };

/** `value` when given, the default (null) when null, `current` when left out. */
function merged<T>(value: T | null | undefined, current: T | null): T | null {
  return value === undefined ? current : value;
}

@Injectable()
export class BrandingService {
  constructor(
    private readonly branding: BrandingRepository,
    private readonly settings: SettingsService,
    private readonly audit: AuditService,
  ) {}

  async get(): Promise<BrandingDto> {
    const [stored, wizardName] = await Promise.all([this.branding.find(), this.wizardSiteName()]);
    return toBrandingDto(stored, wizardName);
  }

  async update(input: UpdateBrandingDto, actor: AuditActor): Promise<BrandingDto> {
    // Read before the transaction: on the embedded database (one connection) a read outside the
    // transaction would wait for it to end.
    const wizardName = await this.wizardSiteName();
    return this.branding.withBrandingLocked(async (manager) => {
      const stored = await this.stored(manager);
      const next: BrandingFields = {
        siteName: merged(input.siteName, stored.siteName),
        logoUrl: merged(input.logoUrl, stored.logoUrl),
        primaryColor: merged(
          typeof input.primaryColor === 'string' ? input.primaryColor.toLowerCase() : input.primaryColor,
          stored.primaryColor,
        ),
        links: input.links === undefined ? stored.links : (input.links ?? []).map((l) => ({ label: l.label, url: l.url })),
      };
      await this.branding.save(next, manager);
      const before = toBrandingDto(stored, wizardName);
      const after = toBrandingDto(next, wizardName);
      await this.audit.record({ action: 'branding.update', actor, details: { before, after } }, manager);
      return after;
    });
  }

  private async stored(manager: EntityManager): Promise<BrandingFields> {
    const row = await this.branding.find(manager);
    return row ? { siteName: row.siteName, logoUrl: row.logoUrl, primaryColor: row.primaryColor, links: row.links } : NO_BRANDING;
  }

  /** The `site.name` setting (the install wizard's): the site name until an admin sets one here (branding never writes it). */
  private async wizardSiteName(): Promise<string | null> {
    return this.settings.get('site.name');
  }
}
