import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type AuditActor, AuditService } from '../audit/audit.service';
import { Clock } from '../../common/clock';
import { badRequest } from '../../common/errors/domain-error';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import type { SettingsDto } from './dto/settings.dto';
import {
  checkSettingValue,
  defaultValue,
  parseSettingsPatch,
  SETTING_DEFINITIONS,
  SETTING_KEYS,
  type SettingKey,
  type SettingValue,
  type SettingValues,
} from './setting-definitions';
import { SettingsChangeBus } from './settings-change-bus';
import { VersionedCache } from './settings-cache';
import { toSettingsDto } from './settings.mapper';
import { SettingsRepository } from './settings.repository';

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The one way to read and change operator settings: typed values from the registry in
 * setting-definitions.ts, validated on write, read through a short cache every instance
 * invalidates (see VersionedCache and the settings_version trigger).
 */
@Injectable()
export class SettingsService {
  private readonly logger = new Logger('Settings');
  private readonly cache: VersionedCache<SettingValues>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: SettingsRepository,
    private readonly audit: AuditService,
    private readonly bus: SettingsChangeBus,
    clock: Clock,
  ) {
    this.cache = new VersionedCache(
      {
        version: () => repository.version(),
        load: async () => {
          const stored = await repository.load();
          return { version: stored.version, value: this.resolve(stored.values, true) };
        },
      },
      clock,
    );
  }

  /**
   * Called after every change, for holders of a copy that skip the version check (the rate
   * limiter): at once for a change through this instance; for one through another, when its
   * Redis message arrives (REDIS_URL), else within the holder's own age.
   */
  onChange(listener: () => void): void {
    this.bus.onChange(listener);
  }

  async get<K extends SettingKey>(key: K): Promise<SettingValue<K>> {
    return (await this.cache.get())[key];
  }

  all(): Promise<SettingValues> {
    return this.cache.get();
  }

  async view(): Promise<SettingsDto> {
    return toSettingsDto(await this.cache.get(), this.config);
  }

  /**
   * Applies a flat `{key: value}` change set in one transaction, or nothing when any key or value
   * is bad (400, one error per field at its pointer). Audits the changed keys' before and after.
   */
  async update(body: unknown, actor: AuditActor): Promise<SettingsDto> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw badRequest('validation-failed', 'the body must be a JSON object of setting keys and their new values', [
        { path: '', message: 'must be an object of setting keys and values' },
      ]);
    }
    const patch = parseSettingsPatch(body as Record<string, unknown>);
    if (!patch.ok) throw badRequest('validation-failed', `the request has ${patch.errors.length} invalid setting(s)`, patch.errors);
    const changes = patch.changes as Record<SettingKey, unknown>;

    const values = await this.repository.inWriteTransaction(async (manager, stored) => {
      const current = this.resolve(stored, false);
      const changed = (Object.keys(changes) as SettingKey[]).filter((key) => !sameValue(current[key], changes[key]));
      for (const key of changed) await this.repository.set(key, changes[key], manager);
      if (changed.length > 0) {
        await this.audit.record(
          {
            action: 'settings.update',
            actor,
            details: {
              keys: changed,
              before: Object.fromEntries(changed.map((key) => [key, current[key]])),
              after: Object.fromEntries(changed.map((key) => [key, changes[key]])),
            },
          },
          manager,
        );
      }
      return { ...current, ...changes } as SettingValues;
    });
    this.changed();
    return toSettingsDto(values, this.config);
  }

  /**
   * Writes one setting inside the caller's transaction (the install wizard), validated like a
   * PATCH. Other instances see it once that transaction commits; this one at its next read.
   */
  async write<K extends SettingKey>(key: K, value: unknown, manager: EntityManager): Promise<void> {
    const patch = parseSettingsPatch({ [key]: value });
    if (!patch.ok) throw badRequest('validation-failed', `the request has ${patch.errors.length} invalid setting(s)`, patch.errors);
    await this.repository.set(key, patch.changes[key], manager);
    this.changed();
  }

  private changed(): void {
    this.cache.invalidate();
    void this.bus.announce();
  }

  /** Stored values over the defaults; a stored value that no longer validates falls back to its default. */
  private resolve(stored: Map<string, unknown>, warn: boolean): SettingValues {
    const values: Record<string, unknown> = {};
    for (const key of SETTING_KEYS) {
      const definition = SETTING_DEFINITIONS[key];
      const raw = stored.get(key);
      const checked = raw === undefined ? null : checkSettingValue(definition, raw);
      if (checked && !checked.ok && warn)
        this.logger.warn(`stored setting ${key} is not valid (${checked.errors[0].message}); using its default`);
      values[key] = checked?.ok ? checked.value : defaultValue(definition, this.config);
    }
    return values as SettingValues;
  }
}
