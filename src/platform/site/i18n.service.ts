import { Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service';
import type { AuditActor } from '../audit/audit.service';
import { badRequest } from '../../common/errors/domain-error';
import type { I18nDto, UpdateI18nDto } from './dto/i18n.dto';
import { DEFAULT_SITE_LANGUAGES, toI18nDto } from './i18n.mapper';
import { I18nRepository } from './i18n.repository';

@Injectable()
export class I18nService {
  constructor(
    private readonly languages: I18nRepository,
    private readonly audit: AuditService,
  ) {}

  async get(): Promise<I18nDto> {
    return toI18nDto((await this.languages.find()) ?? DEFAULT_SITE_LANGUAGES);
  }

  async update(input: UpdateI18nDto, actor: AuditActor): Promise<I18nDto> {
    return this.languages.withLanguagesLocked(async (manager) => {
      const before = toI18nDto((await this.languages.find(manager)) ?? DEFAULT_SITE_LANGUAGES);
      const after: I18nDto = { defaultLocale: input.defaultLocale ?? before.defaultLocale, locales: input.locales ?? before.locales };
      if (!after.locales.includes(after.defaultLocale)) {
        const path = input.defaultLocale === undefined ? '/locales' : '/defaultLocale';
        throw badRequest('validation-failed', 'the default locale must be one of the locales', [
          {
            path,
            message: `${path.slice(1)}: the default locale ${JSON.stringify(after.defaultLocale)} must be one of the locales (${after.locales.join(', ')})`,
          },
        ]);
      }
      await this.languages.save(after, manager);
      await this.audit.record({ action: 'i18n.update', actor, details: { before, after } }, manager);
      return after;
    });
  }
}
