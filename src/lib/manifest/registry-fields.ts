import { FORBIDDEN_KEYS } from './constants';
import { SPEC_MANIFEST_FIELDS } from './rules';
import type { StringRule, ValueRule } from './rules';
import type { ExtensionFieldDeclaration, Kind } from './types';

/**
 * What one registry adds to the spec's rules: its kinds and its extension fields. Disabled kinds
 * are dropped here, so neither the validator nor the schema ever offers them.
 */
export interface RegistryFields {
  /** False when no kinds list was given: any kind matching the pattern is accepted. */
  kindsKnown: boolean;
  kindRule: StringRule;
  global: ReadonlyMap<string, ExtensionFieldDeclaration>;
  /** Enabled kind key → that kind's own declarations. */
  byKind: ReadonlyMap<string, ReadonlyMap<string, ExtensionFieldDeclaration>>;
  /** Declarations that were set aside, explained. */
  notes: string[];
}

export interface RegistryOptions {
  kinds?: readonly Kind[] | null;
  globalExtensionFields?: readonly ExtensionFieldDeclaration[];
}

/** Integers beyond this lose precision in most JSON readers, and canonical JSON refuses them. */
const SAFE_NUMBER_RANGE = { minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };

export function declarationRule(declaration: ExtensionFieldDeclaration): ValueRule {
  const text: StringRule = { type: 'string' };
  if (declaration.maxLength !== undefined) text.maxLength = declaration.maxLength;
  if (declaration.enum !== undefined) text.enum = declaration.enum;
  switch (declaration.type) {
    case 'string':
      return text;
    case 'string[]':
      return { type: 'array', items: text };
    case 'number':
      return declaration.enum === undefined
        ? { type: 'number', ...SAFE_NUMBER_RANGE }
        : { type: 'number', ...SAFE_NUMBER_RANGE, enum: declaration.enum };
    case 'boolean':
      return { type: 'boolean' };
  }
}

function collect(
  declarations: readonly ExtensionFieldDeclaration[] | undefined,
  owner: string,
  notes: string[],
): Map<string, ExtensionFieldDeclaration> {
  const result = new Map<string, ExtensionFieldDeclaration>();
  for (const declaration of declarations ?? []) {
    if (Object.hasOwn(SPEC_MANIFEST_FIELDS, declaration.key) || FORBIDDEN_KEYS.has(declaration.key)) {
      notes.push(`extension field "${declaration.key}" (${owner}) is ignored: that name is reserved by the manifest format`);
    } else if (result.has(declaration.key)) {
      notes.push(`extension field "${declaration.key}" (${owner}) is declared twice; the first declaration is used`);
    } else {
      result.set(declaration.key, declaration);
    }
  }
  return result;
}

export function registryFields(options: RegistryOptions): RegistryFields {
  const notes: string[] = [];
  const global = collect(options.globalExtensionFields, 'global', notes);
  const kindRule = SPEC_MANIFEST_FIELDS.kind as StringRule;
  if (!options.kinds) return { kindsKnown: false, kindRule, global, byKind: new Map(), notes };

  const enabled = options.kinds.filter((kind) => kind.enabled !== false);
  const byKind = new Map(enabled.map((kind) => [kind.key, collect(kind.extensionFields, `kind "${kind.key}"`, notes)] as const));
  const enumNotes: Record<string, string> = {};
  for (const kind of options.kinds) {
    if (kind.enabled === false && !byKind.has(kind.key)) enumNotes[kind.key] = `kind "${kind.key}" is disabled`;
  }
  const enumEmptyReason = byKind.size === 0 ? 'this registry has no kinds enabled' : undefined;
  return {
    kindsKnown: true,
    kindRule: { ...kindRule, enum: [...byKind.keys()], enumNotes, ...(enumEmptyReason ? { enumEmptyReason } : {}) },
    global,
    byKind,
    notes,
  };
}

/** The declarations that apply to a manifest of this kind: global ones, overridden by the kind's own. */
export function extensionFieldsFor(fields: RegistryFields, kind: unknown): Map<string, ExtensionFieldDeclaration> {
  const own = typeof kind === 'string' ? fields.byKind.get(kind) : undefined;
  return new Map([...fields.global, ...(own ?? [])]);
}

/** Kinds that declare `key` for themselves. */
export function kindsDeclaring(fields: RegistryFields, key: string): string[] {
  return [...fields.byKind].filter(([, declarations]) => declarations.has(key)).map(([kind]) => kind);
}
