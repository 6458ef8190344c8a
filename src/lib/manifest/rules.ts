/** Each locale's README is fetched and rendered at ingest, so their number is bounded. */
export const MAX_README_LOCALES = 16;

/**
 * The manifest's rules, written once as data. The validator (check-value.ts) and the JSON Schema
 * (json-schema.ts) are both derived from these, so the two cannot drift apart.
 */

export interface PatternRule {
  /** ECMAScript source, used with the `u` flag (as JSON Schema's `pattern` is). */
  source: string;
  /** What the pattern means, for messages. */
  meaning: string;
}

export interface StringRule {
  type: 'string';
  minLength?: number;
  maxLength?: number;
  pattern?: PatternRule;
  enum?: readonly (string | number)[];
  /** Messages only: why a value outside `enum` is refused, by value (e.g. a disabled kind). */
  enumNotes?: Readonly<Record<string, string>>;
  /** Messages only: why `enum` is empty, said instead of "no value is allowed". */
  enumEmptyReason?: string;
  /** Beyond any schema: must be a semver range or version (semver.validRange). */
  semverRange?: true;
  description?: string;
}

export interface NumberRule {
  type: 'number';
  minimum?: number;
  maximum?: number;
  enum?: readonly (string | number)[];
  description?: string;
}

export interface BooleanRule {
  type: 'boolean';
  description?: string;
}

export interface ArrayRule {
  type: 'array';
  maxItems?: number;
  items: ValueRule;
  description?: string;
}

/** An object whose keys are all known; any other key is a violation. */
export interface ObjectRule {
  type: 'object';
  properties: Readonly<Record<string, ValueRule>>;
  required: readonly string[];
  description?: string;
}

/** An object with free keys that must match a pattern, and values of one rule. */
export interface MapRule {
  type: 'map';
  keyPattern: PatternRule;
  values: ValueRule;
  maxProperties?: number;
  description?: string;
}

export type ValueRule = StringRule | NumberRule | BooleanRule | ArrayRule | ObjectRule | MapRule;

export const HTTP_URL: PatternRule = { source: '^https?://.+', meaning: 'an http:// or https:// URL' };

export const VERSION_PATTERN: PatternRule = {
  source: '^[0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.-]+)?(\\+[0-9A-Za-z.-]+)?$',
  meaning: 'a semantic version such as 1.2.3 or 1.2.3-beta.1, without a leading v',
};

export const KIND_PATTERN: PatternRule = {
  source: '^[a-z0-9][a-z0-9-]*$',
  meaning: 'lowercase letters, digits and hyphens, not starting with a hyphen',
};

/** A README locale code, as the manifest's `readmes` keys must be (a mirror checks upstream's with it too). */
export const LOCALE_PATTERN: PatternRule = { source: '^[a-z]{2}(-[A-Z]{2})?$', meaning: 'a locale code such as en or pt-BR' };

const README_REFERENCE: StringRule = { type: 'string', maxLength: 500, description: 'Repo-relative path or URL of the README markdown.' };

/** The spec's Manifest table. `kind` gets its list of allowed values per registry (see manifestRule). */
export const SPEC_MANIFEST_FIELDS: Readonly<Record<string, ValueRule>> = {
  name: {
    type: 'string',
    minLength: 1,
    maxLength: 64,
    pattern: { source: '^[a-z][a-z0-9-]*$', meaning: 'lowercase letters, digits and hyphens, starting with a letter' },
    description: 'URL slug, canonical package name and default display title.',
  },
  version: { type: 'string', minLength: 1, maxLength: 40, pattern: VERSION_PATTERN, description: 'Semantic version without a leading v.' },
  description: { type: 'string', maxLength: 280, description: 'One-line summary for cards and search results.' },
  category: { type: 'string', maxLength: 40, description: 'Free-form label grouping plugins on the home page.' },
  kind: { type: 'string', minLength: 1, maxLength: 40, pattern: KIND_PATTERN, description: "One of the registry's kinds." },
  tags: { type: 'array', maxItems: 16, items: { type: 'string', maxLength: 30 }, description: 'Used by the search index.' },
  license: { type: 'string', maxLength: 40, description: 'An SPDX identifier is recommended.' },
  icon: { type: 'string', maxLength: 500, description: 'URL of the icon.' },
  screenshots: {
    type: 'array',
    maxItems: 12,
    items: {
      type: 'object',
      properties: {
        url: { type: 'string', minLength: 1, maxLength: 500 },
        caption: { type: 'string', maxLength: 200 },
        alt: { type: 'string', maxLength: 200 },
      },
      required: ['url'],
    },
  },
  readme: README_REFERENCE,
  readmes: {
    type: 'map',
    keyPattern: LOCALE_PATTERN,
    values: README_REFERENCE,
    maxProperties: MAX_README_LOCALES,
    description: 'Per-locale README overrides.',
  },
  documentation_url: { type: 'string', pattern: HTTP_URL },
  homepage: { type: 'string', pattern: HTTP_URL },
  support: {
    type: 'object',
    properties: { email: { type: 'string', maxLength: 254 }, issues_url: { type: 'string', pattern: HTTP_URL } },
    required: [],
  },
  min_runtime_version: {
    type: 'string',
    maxLength: 40,
    semverRange: true,
    description: 'A semver range or a single version; the host runtime refuses older runtimes.',
  },
};

export const REQUIRED_SPEC_FIELDS: readonly string[] = ['name', 'version'];
