import { plural, pointerSegment } from '../../common/errors/validation';
import type { AppConfig } from '../../config/config.types';
import { DEFAULT_MANIFEST_ASSET_CANDIDATES } from '../../lib/manifest';

interface DefinitionBase {
  description: string;
  /** Whether anonymous surfaces (branding, the home page) may show the value. */
  public: boolean;
}

/** 0 or 1; written as 0, 1, true or false, always answered as 0 or 1 (the spec writes `=1`). */
export interface FlagDefinition extends DefinitionBase {
  type: 'flag';
  default: 0 | 1;
}

export interface IntegerDefinition extends DefinitionBase {
  type: 'integer';
  min: number;
  max: number;
  /** A number, or where in the configuration the default comes from. */
  default: number | { config: 'hashBudgetBytes'; variable: string };
}

/** A line of text, stored trimmed. */
export interface TextDefinition extends DefinitionBase {
  type: 'string';
  minLength: number;
  maxLength: number;
  default: string;
}

/** Plain file names (no directory part), each at most `maxLength` characters, no duplicates. */
export interface FileNameListDefinition extends DefinitionBase {
  type: 'file-name[]';
  minItems: number;
  maxItems: number;
  maxLength: number;
  default: readonly string[];
}

export type SettingDefinition = FlagDefinition | IntegerDefinition | TextDefinition | FileNameListDefinition;

const flag = (d: Omit<FlagDefinition, 'type'>): FlagDefinition => ({ type: 'flag', ...d });
const integer = (d: Omit<IntegerDefinition, 'type'>): IntegerDefinition => ({ type: 'integer', ...d });
const text = (d: Omit<TextDefinition, 'type'>): TextDefinition => ({ type: 'string', ...d });
const fileNames = (d: Omit<FileNameListDefinition, 'type'>): FileNameListDefinition => ({ type: 'file-name[]', ...d });

const RATE_LIMIT_MAX = 1_000_000;

/**
 * Every operator setting, declared once: its type, default, bounds and whether it is public.
 * Nothing reads a setting except through SettingsService, which validates against this.
 */
export const SETTING_DEFINITIONS = {
  'manifest.require_release_asset': flag({
    default: 1,
    public: false,
    description:
      'Strict mode: 1 rejects an ingest with no manifest candidate among the release assets; 0 falls back to the manifest in the repository at the tag',
  }),
  'manifest.candidates': fileNames({
    default: DEFAULT_MANIFEST_ASSET_CANDIDATES,
    minItems: 1,
    maxItems: 16,
    maxLength: 255,
    public: false,
    description: 'Release asset file names that may hold the manifest, in order of preference',
  }),
  'hash.budget_bytes': integer({
    default: { config: 'hashBudgetBytes', variable: 'HASH_BUDGET_BYTES' },
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    public: false,
    description: 'Largest asset (bytes) that is hashed and signed; larger assets are ingested unhashed and left out of the signed list',
  }),
  'images.max_bytes': integer({
    default: 10 * 1024 * 1024,
    min: 1024,
    max: 64 * 1024 * 1024,
    public: false,
    description:
      'Largest icon, screenshot or README image (bytes) the registry fetches; a larger icon or screenshot is left out of its release with a warning',
  }),
  'publish.claim_requires_repo_access': flag({
    default: 1,
    public: false,
    description: 'A first push on a repository of a sign-in forge must prove the claimer administers the repository',
  }),
  'signin.password_enabled': flag({
    default: 1,
    public: false,
    description:
      'Local accounts may sign in with a password (the fallback to passkeys); 0 turns password sign-in and setting passwords off. Passkeys and sign-in links always work',
  }),
  'site.name': text({ default: 'Plugin Registry', minLength: 1, maxLength: 100, public: true, description: "The site's display name" }),
  'webhooks.reconcile_interval_s': integer({
    default: 21_600,
    min: 0,
    max: 30 * 24 * 3600,
    public: false,
    description: 'Seconds between webhook reconciliation passes over registered repositories; 0 turns them off',
  }),
  'ingest.max_concurrent': integer({
    default: 32,
    min: 1,
    max: 1_000,
    public: false,
    description: 'Pushes one instance ingests at once; more are answered 429 with Retry-After',
  }),
  'ingest.max_concurrent_per_user': integer({
    default: 20,
    min: 1,
    max: 1_000,
    public: false,
    description: "Pushes one user's tokens may have being ingested at once on one instance (a CI matrix pushes several versions together)",
  }),
  'ratelimit.public_read_per_min': integer({
    default: 1200,
    min: 1,
    max: RATE_LIMIT_MAX,
    public: false,
    description: 'GET and HEAD requests per minute per client IP (health probes and /metrics excepted)',
  }),
  'ratelimit.publish_per_min': integer({
    default: 120,
    min: 1,
    max: RATE_LIMIT_MAX,
    public: false,
    description:
      'Publish and yank requests per minute per verified publisher token; requests whose token has not verified (none, malformed, unknown, expired, revoked) count per client IP',
  }),
  'ratelimit.webhook_per_min': integer({
    default: 600,
    min: 1,
    max: RATE_LIMIT_MAX,
    public: false,
    description: 'Webhook deliveries per minute per client IP (a forge sends from few addresses: size it for every repository it serves)',
  }),
  'ratelimit.signin_per_min': integer({
    default: 120,
    min: 1,
    max: RATE_LIMIT_MAX,
    public: false,
    description: 'Sign-in (/auth/*) and, counted apart, install-wizard (/api/init/*) requests per minute per client IP',
  }),
  'ratelimit.wishlist_request_per_hour': integer({
    default: 10,
    min: 1,
    max: RATE_LIMIT_MAX,
    public: false,
    description: 'Wishlist requests (POST /api/requests) one signed-in user may create per hour',
  }),
  'ratelimit.wishlist_vote_per_min': integer({
    default: 60,
    min: 1,
    max: RATE_LIMIT_MAX,
    public: false,
    description: 'Wishlist votes and vote removals one signed-in user may make per minute',
  }),
  'ratelimit.submit_per_hour': integer({
    default: 10,
    min: 1,
    max: RATE_LIMIT_MAX,
    public: false,
    description: 'Repository submissions (POST /api/submit/oauth) one signed-in user may make per hour',
  }),
  'ratelimit.subscription_ping_per_hour': integer({
    default: 30,
    min: 1,
    max: RATE_LIMIT_MAX,
    public: false,
    description: 'Test pings of webhook subscriptions (POST /api/account/subscriptions/{id}/ping) one signed-in user may send per hour',
  }),
  'ratelimit.signin_failures_per_account': integer({
    default: 5,
    min: 1,
    max: RATE_LIMIT_MAX,
    public: false,
    description:
      'Failed password sign-ins one local account may take in 15 minutes; past it, the account refuses every password (the right one too) until the window ends, answering as for a wrong password',
  }),
  'ratelimit.signin_failures_per_ip': integer({
    default: 30,
    min: 1,
    max: RATE_LIMIT_MAX,
    public: false,
    description:
      'Failed sign-ins (password, passkey, sign-in link) from one client IP in 15 minutes; past it, sign-in from that address is answered 429 until the window ends',
  }),
  'ratelimit.password_checks_per_hour': integer({
    default: 20,
    min: 1,
    max: RATE_LIMIT_MAX,
    public: false,
    description:
      'Password changes (PUT /api/auth/me/password) and step-ups with the current password (POST /api/auth/me/step-up) one signed-in account may make per hour, and, counted apart, one client IP; past it, 429 with Retry-After',
  }),
  'ratelimit.reconcile_cooldown_s': integer({
    default: 60,
    min: 1,
    max: 24 * 3600,
    public: false,
    description:
      "Seconds after an owner's or admin's reconcile of a plugin before that plugin can be reconciled again (each asks its forge)",
  }),
};

/**
 * Keys stored beside the settings but edited through an endpoint of their own, with a richer
 * validation than a flat value: `PATCH /api/admin/settings` refuses them and does not list them.
 */
export const INTERNAL_SETTING_KEYS: Readonly<Record<string, string>> = {
  'extension_fields.global': 'the global extension fields, which have their own admin endpoint under /api/admin/kinds',
};

export type SettingKey = keyof typeof SETTING_DEFINITIONS;

type ValueOf<D> = D extends FlagDefinition
  ? 0 | 1
  : D extends IntegerDefinition
    ? number
    : D extends TextDefinition
      ? string
      : D extends FileNameListDefinition
        ? string[]
        : never;

export type SettingValue<K extends SettingKey> = ValueOf<(typeof SETTING_DEFINITIONS)[K]>;
export type SettingValues = { [K in SettingKey]: SettingValue<K> };

export const SETTING_KEYS = Object.keys(SETTING_DEFINITIONS) as SettingKey[];

export function isSettingKey(key: string): key is SettingKey {
  return Object.prototype.hasOwnProperty.call(SETTING_DEFINITIONS, key);
}

export function defaultValue(definition: SettingDefinition, config: Pick<AppConfig, 'hashBudgetBytes'>): unknown {
  if (definition.type === 'integer' && typeof definition.default === 'object') return config[definition.default.config];
  if (definition.type === 'file-name[]') return [...definition.default];
  return definition.default;
}

/** Every declared key at its default. */
export function defaultValues(config: Pick<AppConfig, 'hashBudgetBytes'>): SettingValues {
  return Object.fromEntries(SETTING_KEYS.map((key) => [key, defaultValue(SETTING_DEFINITIONS[key], config)])) as SettingValues;
}

/** What is wrong with a value, at a pointer relative to the key (`''` or `/2` for an item). */
export interface SettingValueError {
  pointer: string;
  message: string;
}

export type SettingCheck = { ok: true; value: unknown } | { ok: false; errors: SettingValueError[] };

// eslint-disable-next-line no-control-regex -- finding them is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
const characters = (value: string) => [...value].length;

function fail(message: string, pointer = ''): SettingCheck {
  return { ok: false, errors: [{ pointer, message }] };
}

function checkFlag(raw: unknown): SettingCheck {
  if (raw === 0 || raw === false) return { ok: true, value: 0 };
  if (raw === 1 || raw === true) return { ok: true, value: 1 };
  return fail('must be 0, 1, true or false');
}

function checkInteger(definition: IntegerDefinition, raw: unknown): SettingCheck {
  if (typeof raw !== 'number' || !Number.isInteger(raw)) return fail('must be an integer');
  if (raw < definition.min) return fail(`must be at least ${definition.min}`);
  if (raw > definition.max) return fail(`must be at most ${definition.max}`);
  return { ok: true, value: raw };
}

function checkText(definition: TextDefinition, raw: unknown): SettingCheck {
  if (typeof raw !== 'string') return fail('must be a string');
  const value = raw.trim();
  if (CONTROL_CHARACTERS.test(value)) return fail('must not contain control characters');
  const length = characters(value);
  if (length < definition.minLength)
    return fail(value === '' && raw !== '' ? 'must not be blank' : `must be at least ${plural(definition.minLength, 'character')} long`);
  if (length > definition.maxLength) return fail(`must be at most ${plural(definition.maxLength, 'character')} long`);
  return { ok: true, value };
}

/** Why `name` is not a plain file name, or null. */
function fileNameProblem(name: unknown, maxLength: number): string | null {
  if (typeof name !== 'string') return 'must be a string';
  if (name === '') return 'must not be empty';
  if (characters(name) > maxLength) return `must be at most ${plural(maxLength, 'character')} long`;
  if (name !== name.trim()) return 'must not start or end with whitespace';
  if (CONTROL_CHARACTERS.test(name)) return 'must not contain control characters';
  if (/[/\\]/.test(name) || name === '.' || name === '..') return 'must be a plain file name (no directory part)';
  return null;
}

function checkFileNames(definition: FileNameListDefinition, raw: unknown): SettingCheck {
  if (!Array.isArray(raw)) return fail('must be an array of file names');
  if (raw.length < definition.minItems) return fail(`must have at least ${plural(definition.minItems, 'element')}`);
  if (raw.length > definition.maxItems) return fail(`must have at most ${plural(definition.maxItems, 'element')}`);
  const errors: SettingValueError[] = [];
  const seen = new Set<string>();
  raw.forEach((name, index) => {
    const problem = fileNameProblem(name, definition.maxLength) ?? (seen.has(name as string) ? 'is listed twice' : null);
    if (problem) errors.push({ pointer: `/${index}`, message: problem });
    seen.add(name as string);
  });
  return errors.length ? { ok: false, errors } : { ok: true, value: [...(raw as string[])] };
}

/** Validates a value for a setting and returns it normalized (flags as 0/1, text trimmed). */
export function checkSettingValue(definition: SettingDefinition, raw: unknown): SettingCheck {
  switch (definition.type) {
    case 'flag':
      return checkFlag(raw);
    case 'integer':
      return checkInteger(definition, raw);
    case 'string':
      return checkText(definition, raw);
    case 'file-name[]':
      return checkFileNames(definition, raw);
  }
}

export interface SettingsPatchError {
  path: string;
  message: string;
}

export type SettingsPatch = { ok: true; changes: Partial<SettingValues> } | { ok: false; errors: SettingsPatchError[] };

/**
 * Checks a flat `{key: value}` change set: every unknown key, internal key and bad value is
 * reported at its own JSON pointer (`/hash.budget_bytes`, `/manifest.candidates/2`), and the
 * changes are returned only when all of them are good.
 */
export function parseSettingsPatch(body: Readonly<Record<string, unknown>>): SettingsPatch {
  const errors: SettingsPatchError[] = [];
  const changes: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(body)) {
    const path = `/${pointerSegment(key)}`;
    const label = path.slice(1);
    if (Object.prototype.hasOwnProperty.call(INTERNAL_SETTING_KEYS, key)) {
      errors.push({ path, message: `${label}: is not edited here; it holds ${INTERNAL_SETTING_KEYS[key]}` });
      continue;
    }
    if (!isSettingKey(key)) {
      errors.push({ path, message: `${label}: is not a known setting` });
      continue;
    }
    const checked = checkSettingValue(SETTING_DEFINITIONS[key], raw);
    if (checked.ok) changes[key] = checked.value;
    else errors.push(...checked.errors.map((e) => ({ path: `${path}${e.pointer}`, message: `${label}${e.pointer}: ${e.message}` })));
  }
  return errors.length ? { ok: false, errors } : { ok: true, changes: changes as Partial<SettingValues> };
}
