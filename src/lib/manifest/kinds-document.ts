import { isPlainObject } from './check-value';
import type { ExtensionFieldDeclaration, ExtensionFieldType, Kind } from './types';

/**
 * Reads a kinds list in the shape of `GET /api/kinds` (`{kinds: [{key, label, description,
 * extensionFields}]}`), optionally with a top-level `extensionFields` array of global declarations.
 * Used by tools that are handed such a file; the server builds its kinds from the database.
 */
export type KindsDocument =
  { ok: true; kinds: Kind[]; globalExtensionFields: ExtensionFieldDeclaration[] } | { ok: false; problems: string[] };

const FIELD_TYPES: readonly ExtensionFieldType[] = ['string', 'number', 'boolean', 'string[]'];

function readDeclaration(value: unknown, where: string, problems: string[]): ExtensionFieldDeclaration | undefined {
  if (!isPlainObject(value)) return void problems.push(`${where}: must be an object`);
  const { key, label, type, required, enum: allowed, maxLength } = value;
  const before = problems.length;
  if (typeof key !== 'string' || key === '') problems.push(`${where}.key: must be a non-empty string`);
  if (!FIELD_TYPES.includes(type as ExtensionFieldType)) problems.push(`${where}.type: must be one of ${FIELD_TYPES.join(', ')}`);
  if (label !== undefined && label !== null && typeof label !== 'string') problems.push(`${where}.label: must be a string`);
  if (required !== undefined && typeof required !== 'boolean') problems.push(`${where}.required: must be a boolean`);
  const enumOk = Array.isArray(allowed) && allowed.every((item) => typeof item === 'string' || typeof item === 'number');
  if (allowed !== undefined && allowed !== null && !enumOk) problems.push(`${where}.enum: must be an array of strings and numbers`);
  const maxLengthOk = typeof maxLength === 'number' && Number.isInteger(maxLength) && maxLength >= 0;
  if (maxLength !== undefined && maxLength !== null && !maxLengthOk) problems.push(`${where}.maxLength: must be a whole number`);
  if (problems.length > before) return undefined;

  const declaration: ExtensionFieldDeclaration = { key: key as string, type: type as ExtensionFieldType };
  if (typeof label === 'string' && label !== '') declaration.label = label;
  if (required === true) declaration.required = true;
  if (enumOk) declaration.enum = allowed as (string | number)[];
  if (maxLengthOk) declaration.maxLength = maxLength;
  return declaration;
}

function readDeclarations(value: unknown, where: string, problems: string[]): ExtensionFieldDeclaration[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return (void problems.push(`${where}: must be an array`), []);
  return value.flatMap((item, index) => readDeclaration(item, `${where}[${index}]`, problems) ?? []);
}

function readKind(value: unknown, where: string, problems: string[]): Kind | undefined {
  if (!isPlainObject(value)) return void problems.push(`${where}: must be an object`);
  const { key, label, description, enabled } = value;
  const before = problems.length;
  if (typeof key !== 'string' || key === '') problems.push(`${where}.key: must be a non-empty string`);
  if (typeof label !== 'string') problems.push(`${where}.label: must be a string`);
  if (description !== undefined && description !== null && typeof description !== 'string') {
    problems.push(`${where}.description: must be a string or null`);
  }
  if (enabled !== undefined && typeof enabled !== 'boolean') problems.push(`${where}.enabled: must be a boolean`);
  const extensionFields = readDeclarations(value.extensionFields, `${where}.extensionFields`, problems);
  if (problems.length > before) return undefined;
  const kind: Kind = {
    key: key as string,
    label: label as string,
    description: (description as string | null | undefined) ?? null,
    extensionFields,
  };
  if (enabled === false) kind.enabled = false;
  return kind;
}

export function readKindsDocument(value: unknown): KindsDocument {
  const problems: string[] = [];
  if (!isPlainObject(value) || !Array.isArray(value.kinds)) return { ok: false, problems: ['must be an object with a "kinds" array'] };
  const kinds = value.kinds.flatMap((item, index) => readKind(item, `kinds[${index}]`, problems) ?? []);
  const globalExtensionFields = readDeclarations(value.extensionFields, 'extensionFields', problems);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, kinds, globalExtensionFields };
}
