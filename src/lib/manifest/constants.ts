/** The spec's "Pushed manifest text" limit, counted in UTF-8 bytes. */
export const MAX_MANIFEST_BYTES = 65536;

/** Deepest collection nesting a manifest may use; the spec's deepest field is two levels down. */
export const MAX_NESTING_DEPTH = 32;

/** The file names a push may name its manifest by (`manifestSource`): its format. */
export const MANIFEST_SOURCES: readonly string[] = [
  'plugin.yaml',
  'plugin.yml',
  'plugin.json',
  '.plugin',
  '.plugin.yaml',
  '.plugin.yml',
  '.plugin.json',
];

/** Manifest file names allowed at a repository root, in the order the CLI prefers them. */
export const MANIFEST_FILE_NAMES: readonly string[] = ['.plugin.yaml', '.plugin.yml', '.plugin.json', '.plugin'];

/** Release asset names that may hold the manifest (the spec's default whitelist). */
export const DEFAULT_MANIFEST_ASSET_CANDIDATES: readonly string[] = ['.plugin', '.plugin.json', 'plugin.yaml', 'plugin.json'];

/**
 * Keys refused anywhere in a manifest: code that copies a manifest with plain assignment would
 * otherwise rewrite a prototype.
 */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
