/**
 * The plugin manifest: reading, validating, canonical form and JSON Schema. Framework-free, so the
 * server and the `registry` CLI share it (only node builtins, `yaml` and `semver`).
 */
export { checkManifest } from './check-manifest';
export {
  DEFAULT_MANIFEST_ASSET_CANDIDATES,
  MANIFEST_FILE_NAMES,
  MANIFEST_SOURCES,
  MAX_MANIFEST_BYTES,
  MAX_NESTING_DEPTH,
} from './constants';
export { JSON_SCHEMA_DIALECT, manifestJsonSchema } from './json-schema';
export type { JsonSchema, ManifestSchemaOptions } from './json-schema';
export { readKindsDocument } from './kinds-document';
export { LOCALE_PATTERN as README_LOCALE_PATTERN, MAX_README_LOCALES } from './rules';
export type { KindsDocument } from './kinds-document';
export { manifestFormat, manifestTooLarge, parseManifestText } from './parse-text';
export type { ManifestFormat } from './parse-text';
export type {
  ExtensionFieldDeclaration,
  ExtensionFieldType,
  Kind,
  Manifest,
  ParseResult,
  Screenshot,
  Support,
  ValidateOptions,
  ValidationResult,
  Violation,
} from './types';
export { KINDS_NOT_CHECKED_NOTE, validateManifest } from './validate';
export { normalizeVersion } from './version';
export { formatViolation } from './violations';
export { nulCharacterPointers } from './nul-characters';
export { declarationProblems, EXTENSION_KEY_PATTERN } from './declarations';
