/** One problem with a manifest. `path` is an RFC 6901 JSON pointer into the manifest ('' is the whole document). */
export interface Violation {
  path: string;
  message: string;
}

export interface Screenshot {
  url: string;
  caption?: string;
  alt?: string;
}

export interface Support {
  email?: string;
  issues_url?: string;
}

/** The spec's manifest fields. Extension fields are returned separately, as `extensions`. */
export interface Manifest {
  name: string;
  version: string;
  description?: string;
  category?: string;
  kind?: string;
  tags?: string[];
  license?: string;
  icon?: string;
  screenshots?: Screenshot[];
  readme?: string;
  readmes?: Record<string, string>;
  documentation_url?: string;
  homepage?: string;
  support?: Support;
  min_runtime_version?: string;
}

export type ExtensionFieldType = 'string' | 'number' | 'boolean' | 'string[]';

/**
 * An admin-declared manifest field
 * (docs/decisions.md#kinds-and-extension-fields-are-declared-by-admins). For `string[]`, `enum` and
 * `maxLength` apply to each item.
 */
export interface ExtensionFieldDeclaration {
  key: string;
  /** What people read for the field ("Dark variant"); the key when absent. */
  label?: string;
  type: ExtensionFieldType;
  required?: boolean;
  enum?: (string | number)[];
  maxLength?: number;
}

export interface Kind {
  key: string;
  label: string;
  description?: string | null;
  /** Absent means enabled. */
  enabled?: boolean;
  extensionFields?: ExtensionFieldDeclaration[];
}

export interface ValidateOptions {
  /** The registry's kinds; null when they are not known (the CLI without --kinds). */
  kinds: readonly Kind[] | null;
  globalExtensionFields?: readonly ExtensionFieldDeclaration[];
  /** Release tag; the manifest version must equal it without a leading v. */
  tag?: string;
  /** Plugin slug; the manifest name must equal it. */
  slug?: string;
}

export type ParseResult = { ok: true; value: unknown } | { ok: false; violations: Violation[] };

export type ValidationResult =
  | {
      ok: true;
      manifest: Manifest;
      /** Declared extension fields found in the manifest, or null when it has none. */
      extensions: Record<string, unknown> | null;
      /** RFC 8785 canonical JSON of the whole parsed manifest. */
      canonicalJson: string;
      /** SHA-256 hex of `canonicalJson` (the signed `manifest_sha256`). */
      sha256: string;
      notes: string[];
      /**
       * What may be wrong but cannot be judged here: without the registry's kinds, a top-level
       * field the format does not define may be an extension field the registry declares.
       */
      warnings: Violation[];
    }
  | { ok: false; violations: Violation[]; notes: string[]; warnings: Violation[] };
