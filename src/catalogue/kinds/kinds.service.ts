import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CatalogueReads } from '../../persistence/catalogue-reads';
import type { ExtensionFieldDeclaration, Kind } from '../../lib/manifest';
import { SettingsRepository } from '../../platform/settings/settings.repository';
import type { KindListDto } from './dto/kind.dto';
import { KindsRepository } from './kinds.repository';
import { toKindDto } from './kinds.mapper';

export const GLOBAL_EXTENSION_FIELDS_SETTING = 'extension_fields.global';

/** What the manifest validator needs from the registry: its kinds and extension fields. */
export interface ManifestRegistryContext {
  kinds: Kind[];
  globalExtensionFields: ExtensionFieldDeclaration[];
}

/** A field the catalogue counts values of (facets): one with a closed set of values, an enum or a boolean. */
export function isFacetable(field: ExtensionFieldDeclaration): boolean {
  return field.type === 'boolean' || (Array.isArray(field.enum) && field.enum.length > 0);
}

@Injectable()
export class KindsService {
  private readonly schemaListeners: Array<() => void> = [];

  constructor(
    private readonly kinds: KindsRepository,
    private readonly settings: SettingsRepository,
    private readonly reads: CatalogueReads,
  ) {}

  /** Enabled kinds, in the shape `registry validate --kinds` reads. */
  publicList(): Promise<KindListDto> {
    return this.reads.run(async (manager) => {
      const [kinds, globalFields] = await Promise.all([this.kinds.enabled(manager), this.globalExtensionFields(manager)]);
      return { kinds: kinds.map(toKindDto), extensionFields: globalFields };
    });
  }

  /**
   * The extension keys the catalogue shows facets for: every field declared as an enum or a
   * boolean, by a kind (enabled or not: its plugins stay listed) or globally, sorted; with the
   * `settings_version` read first (kinds and the global fields move it), so a change committed in
   * between leaves the keys labelled older, and read again.
   */
  facetableExtensionKeys(): Promise<{ keys: string[]; version: string }> {
    return this.reads.run(async (manager) => {
      const version = await this.settings.version(manager);
      const [kinds, globalFields] = await Promise.all([this.kinds.allIn(manager), this.globalExtensionFields(manager)]);
      const keys = new Set<string>();
      for (const field of [...globalFields, ...kinds.flatMap((kind) => kind.extensionFields ?? [])])
        if (isFacetable(field)) keys.add(field.key);
      return { keys: [...keys].sort(), version };
    });
  }

  /** `listener` runs after an admin changes a kind or the global extension fields on this instance. */
  onExtensionSchemaChange(listener: () => void): void {
    this.schemaListeners.push(listener);
  }

  /** Called by the admin service once a change committed. */
  extensionSchemaChanged(): void {
    for (const listener of this.schemaListeners) listener();
  }

  /** The keys of the enabled kinds. */
  async enabledKeys(): Promise<string[]> {
    return (await this.kinds.enabled()).map((kind) => kind.key);
  }

  /** Whether releases of the kind `key` must carry verified provenance (an unknown kind: no). */
  requiresProvenance(key: string): Promise<boolean> {
    return this.kinds.requiresProvenance(key);
  }

  /** Every kind (disabled ones too: the validator must say "disabled", not "unknown"). */
  async validationContext(): Promise<ManifestRegistryContext> {
    const [kinds, globalExtensionFields] = await Promise.all([this.kinds.all(), this.globalExtensionFields()]);
    return {
      kinds: kinds.map((k) => ({
        key: k.key,
        label: k.label,
        description: k.description,
        enabled: k.enabled,
        extensionFields: k.extensionFields,
      })),
      globalExtensionFields,
    };
  }

  private async globalExtensionFields(manager?: EntityManager): Promise<ExtensionFieldDeclaration[]> {
    return (await this.settings.get<ExtensionFieldDeclaration[]>(GLOBAL_EXTENSION_FIELDS_SETTING, manager)) ?? [];
  }
}
