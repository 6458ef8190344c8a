import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type AuditActor, AuditService } from '../../platform/audit/audit.service';
import { badRequest, conflict, invalid, notFound } from '../../common/errors/domain-error';
import { declarationProblems, type ExtensionFieldDeclaration } from '../../lib/manifest';
import { SettingsRepository } from '../../platform/settings/settings.repository';
import type {
  AdminKindDto,
  AdminKindListDto,
  CreateKindDto,
  ExtensionFieldInputDto,
  ExtensionFieldsDto,
  UpdateKindDto,
} from './dto/admin-kind.dto';
import type { KindEntity } from './entities/kind.entity';
import { toAdminKindDto, toDeclarations } from './kinds.mapper';
import { type KindFields, KindsRepository } from './kinds.repository';
import { GLOBAL_EXTENSION_FIELDS_SETTING, KindsService } from './kinds.service';

function snapshot(kind: KindEntity): Record<string, unknown> {
  return {
    label: kind.label,
    description: kind.description,
    enabled: kind.enabled,
    extensionFields: kind.extensionFields,
    requireProvenance: kind.requireProvenance,
  };
}

/** Declarations as given, refused with every problem at its pointer when they cannot be used. */
function checkedDeclarations(fields: readonly ExtensionFieldInputDto[] | undefined, root: string): ExtensionFieldDeclaration[] {
  const declarations = toDeclarations(fields ?? []);
  const problems = declarationProblems(declarations, root);
  if (problems.length)
    throw invalid('extension-fields-invalid', `${problems.length} extension field declaration(s) cannot be used`, problems);
  return declarations;
}

/** Only the fields the body names: one left out keeps its stored value. */
function namedChanges(input: UpdateKindDto): Partial<KindFields> {
  const changes: Partial<KindFields> = {};
  if (input.label !== undefined) changes.label = input.label;
  if (input.description !== undefined) changes.description = input.description;
  if (input.enabled !== undefined) changes.enabled = input.enabled;
  if (input.requireProvenance !== undefined) changes.requireProvenance = input.requireProvenance;
  if (input.extensionFields !== undefined) changes.extensionFields = checkedDeclarations(input.extensionFields, '/extensionFields');
  return changes;
}

/**
 * The kinds taxonomy and the registry's extension fields, as admins manage them. Every change is
 * audited with its before and after in the same transaction. Changes never rewrite stored
 * releases: they apply to the next ingest.
 */
@Injectable()
export class AdminKindsService {
  constructor(
    private readonly kinds: KindsRepository,
    private readonly settings: SettingsRepository,
    private readonly audit: AuditService,
    private readonly schema: KindsService,
  ) {}

  async list(): Promise<AdminKindListDto> {
    return { kinds: (await this.kinds.all()).map(toAdminKindDto) };
  }

  async create(input: CreateKindDto, actor: AuditActor): Promise<AdminKindDto> {
    const fields: KindFields = {
      label: input.label,
      description: input.description ?? null,
      enabled: input.enabled ?? true,
      extensionFields: checkedDeclarations(input.extensionFields, '/extensionFields'),
      requireProvenance: input.requireProvenance ?? false,
    };
    return this.announced(
      this.kinds.transaction(async (manager) => {
        const created = await this.kinds.insert(input.key, fields, manager);
        if (!created) throw conflict('kind-exists', `a kind "${input.key}" already exists`);
        await this.audit.record(
          { action: 'kind.create', actor, details: { key: input.key, before: null, after: snapshot(created) } },
          manager,
        );
        return toAdminKindDto(created);
      }),
    );
  }

  async update(key: string, input: UpdateKindDto, actor: AuditActor): Promise<AdminKindDto> {
    if (input.key !== undefined && input.key !== key) {
      throw badRequest('kind-key-immutable', 'a kind key cannot change', [
        { path: '/key', message: `key: is immutable; it must equal "${key}" or be left out` },
      ]);
    }
    const changes = namedChanges(input);
    return this.announced(
      this.kinds.transaction(async (manager) => {
        const before = await this.existing(key, manager);
        const after = await this.kinds.update(key, changes, manager);
        await this.audit.record(
          { action: 'kind.update', actor, details: { key, before: snapshot(before), after: snapshot(after) } },
          manager,
        );
        return toAdminKindDto(after);
      }),
    );
  }

  /** Plugins keep the key as a free-form value; they are not touched. */
  async remove(key: string, actor: AuditActor): Promise<void> {
    await this.announced(
      this.kinds.transaction(async (manager) => {
        const before = await this.existing(key, manager);
        await this.kinds.delete(key, manager);
        await this.audit.record({ action: 'kind.delete', actor, details: { key, before: snapshot(before), after: null } }, manager);
      }),
    );
  }

  async globalFields(): Promise<ExtensionFieldsDto> {
    return { fields: (await this.settings.get<ExtensionFieldDeclaration[]>(GLOBAL_EXTENSION_FIELDS_SETTING)) ?? [] };
  }

  async replaceGlobalFields(fields: readonly ExtensionFieldInputDto[], actor: AuditActor): Promise<ExtensionFieldsDto> {
    const declarations = checkedDeclarations(fields, '/fields');
    await this.announced(
      this.kinds.transaction(async (manager) => {
        const before = (await this.settings.get<ExtensionFieldDeclaration[]>(GLOBAL_EXTENSION_FIELDS_SETTING, manager)) ?? [];
        await this.settings.set(GLOBAL_EXTENSION_FIELDS_SETTING, declarations, manager);
        await this.audit.record({ action: 'extension_fields.update', actor, details: { before, after: declarations } }, manager);
      }),
    );
    return { fields: declarations };
  }

  /** A committed change, told to whoever keeps a copy of the extension schema (the catalogue's facets). */
  private async announced<T>(change: Promise<T>): Promise<T> {
    const result = await change;
    this.schema.extensionSchemaChanged();
    return result;
  }

  private async existing(key: string, manager: EntityManager): Promise<KindEntity> {
    const kind = await this.kinds.findForUpdate(key, manager);
    if (!kind) throw notFound(`no kind "${key}"`);
    return kind;
  }
}
