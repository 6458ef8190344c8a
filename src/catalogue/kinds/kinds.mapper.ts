import type { ExtensionFieldDeclaration } from '../../lib/manifest';
import type { AdminKindDto, ExtensionFieldInputDto } from './dto/admin-kind.dto';
import type { KindDto } from './dto/kind.dto';
import type { KindEntity } from './entities/kind.entity';

export function toKindDto(kind: KindEntity): KindDto {
  return {
    key: kind.key,
    label: kind.label,
    description: kind.description,
    extensionFields: kind.extensionFields,
    requireProvenance: kind.requireProvenance,
  };
}

export function toAdminKindDto(kind: KindEntity): AdminKindDto {
  return { ...toKindDto(kind), enabled: kind.enabled, createdAt: kind.createdAt.getTime(), updatedAt: kind.updatedAt.getTime() };
}

/** Declarations as stored: only the members that were given. */
export function toDeclarations(fields: readonly ExtensionFieldInputDto[]): ExtensionFieldDeclaration[] {
  return fields.map((field) => ({
    key: field.key,
    ...(field.label !== undefined ? { label: field.label } : {}),
    type: field.type,
    ...(field.required !== undefined ? { required: field.required } : {}),
    ...(field.enum !== undefined ? { enum: field.enum } : {}),
    ...(field.maxLength !== undefined ? { maxLength: field.maxLength } : {}),
  }));
}
