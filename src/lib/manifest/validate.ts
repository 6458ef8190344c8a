import { createHash } from 'node:crypto';
import { canonicalJson, CanonicalJsonError } from '../integrity/canonical-json';
import { checkValue, isPlainObject } from './check-value';
import { didYouMean } from './did-you-mean';
import { FORBIDDEN_KEYS } from './constants';
import { EXTENSION_KEY_PATTERN } from './declarations';
import { declarationRule, extensionFieldsFor, kindsDeclaring, registryFields } from './registry-fields';
import type { RegistryFields } from './registry-fields';
import { REQUIRED_SPEC_FIELDS, SPEC_MANIFEST_FIELDS } from './rules';
import type { ExtensionFieldDeclaration, Manifest, ValidateOptions, ValidationResult, Violation } from './types';
import { nulCharacterPointers } from './nul-characters';
import { normalizeVersion } from './version';
import { childPointer, describeType, violation } from './violations';

export const KINDS_NOT_CHECKED_NOTE =
  "kinds were not checked: without the registry's kinds, any kind matching the pattern is accepted, and fields outside the manifest format are left for the registry to judge";

function unknownField(key: string, fields: RegistryFields, extensionKeys: ReadonlySet<string>): Violation {
  const pointer = childPointer('', key);
  const owners = kindsDeclaring(fields, key);
  if (owners.length > 0) {
    const list = owners.map((owner) => `"${owner}"`).join(', ');
    return violation(pointer, `is not a field of this kind (it is declared for kind ${list} only)`);
  }
  return violation(pointer, `is not a known field${didYouMean(key, [...Object.keys(SPEC_MANIFEST_FIELDS), ...extensionKeys])}`);
}

function requiredBy(declaration: ExtensionFieldDeclaration, fields: RegistryFields, kind: unknown): string {
  const ownKind = typeof kind === 'string' ? fields.byKind.get(kind) : undefined;
  return ownKind?.get(declaration.key) === declaration ? `is required for kind "${String(kind)}"` : 'is required by this registry';
}

function checkConsistency(manifest: Record<string, unknown>, options: ValidateOptions, violations: Violation[]): void {
  const alreadyWrong = (pointer: string) => violations.some((item) => item.path === pointer);
  if (options.tag !== undefined && typeof manifest.version === 'string' && !alreadyWrong('/version')) {
    const expected = normalizeVersion(options.tag);
    if (manifest.version !== expected) {
      const rule = `must equal the release tag without its leading v: expected "${expected}" (tag "${options.tag}"), got "${manifest.version}"`;
      violations.push(violation('/version', rule));
    }
  }
  if (options.slug !== undefined && typeof manifest.name === 'string' && !alreadyWrong('/name')) {
    if (manifest.name !== options.slug) {
      violations.push(violation('/name', `must equal the plugin slug "${options.slug}", got "${manifest.name}"`));
    }
  }
}

function pick(source: Record<string, unknown>, keys: Iterable<string>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const key of keys) if (Object.hasOwn(source, key)) result[key] = source[key];
  return result;
}

/**
 * Without the registry's kinds, a top-level key shaped like an extension field may be one the
 * registry declares (globally or for a kind): it is a warning, and the registry decides at the push.
 * A key no registry could declare stays a violation.
 */
function mayBeExtensionField(key: string, fields: RegistryFields): boolean {
  return !fields.kindsKnown && EXTENSION_KEY_PATTERN.test(key) && !FORBIDDEN_KEYS.has(key);
}

function unverifiedField(key: string, extensionKeys: ReadonlySet<string>): Violation {
  const hint = didYouMean(key, [...Object.keys(SPEC_MANIFEST_FIELDS), ...extensionKeys]);
  return violation(
    childPointer('', key),
    `is not a field of the manifest format; not checked: it must be an extension field the registry declares${hint}`,
  );
}

/** Checks a parsed manifest against the spec and the registry's kinds; reports every violation. */
export function validateManifest(value: unknown, options: ValidateOptions): ValidationResult {
  const fields = registryFields(options);
  const notes = [...fields.notes];
  if (!fields.kindsKnown) notes.push(KINDS_NOT_CHECKED_NOTE);
  if (!isPlainObject(value)) {
    return {
      ok: false,
      violations: [violation('', `must be an object of manifest fields (got ${describeType(value)})`)],
      notes,
      warnings: [],
    };
  }

  // A NUL cannot be stored, and a field holding one is refused whatever else it breaks.
  const nul = nulCharacterPointers(value);
  if (nul.length > 0)
    return {
      ok: false,
      violations: nul.map((pointer) => violation(pointer, 'must not contain NUL (U+0000) characters')),
      notes,
      warnings: [],
    };

  const violations: Violation[] = [];
  const warnings: Violation[] = [];
  const extensionFields = extensionFieldsFor(fields, value.kind);
  const extensionKeys = new Set([...fields.global.keys(), ...[...fields.byKind.values()].flatMap((own) => [...own.keys()])]);
  for (const [key, member] of Object.entries(value)) {
    const pointer = childPointer('', key);
    const declaration = extensionFields.get(key);
    if (key === 'kind') checkValue(member, fields.kindRule, pointer, violations);
    else if (Object.hasOwn(SPEC_MANIFEST_FIELDS, key)) checkValue(member, SPEC_MANIFEST_FIELDS[key], pointer, violations);
    else if (declaration) checkValue(member, declarationRule(declaration), pointer, violations);
    else if (mayBeExtensionField(key, fields)) warnings.push(unverifiedField(key, extensionKeys));
    else violations.push(unknownField(key, fields, extensionKeys));
  }
  for (const key of REQUIRED_SPEC_FIELDS) {
    if (!Object.hasOwn(value, key)) violations.push(violation(childPointer('', key), 'is required'));
  }
  for (const declaration of extensionFields.values()) {
    if (declaration.required && !Object.hasOwn(value, declaration.key)) {
      violations.push(violation(childPointer('', declaration.key), requiredBy(declaration, fields, value.kind)));
    }
  }
  checkConsistency(value, options, violations);
  if (violations.length > 0) return { ok: false, violations, notes, warnings };

  let canonical: string;
  try {
    canonical = canonicalJson(value);
  } catch (error) {
    if (!(error instanceof CanonicalJsonError)) throw error;
    return { ok: false, violations: [violation(error.pointer, `cannot be written as canonical JSON: ${error.reason}`)], notes, warnings };
  }
  const extensions = pick(value, extensionFields.keys());
  return {
    ok: true,
    manifest: pick(value, Object.keys(SPEC_MANIFEST_FIELDS)) as unknown as Manifest,
    extensions: Object.keys(extensions).length > 0 ? extensions : null,
    canonicalJson: canonical,
    sha256: createHash('sha256').update(canonical, 'utf8').digest('hex'),
    notes,
    warnings,
  };
}
