/** A feature an operator can turn off; its endpoints then answer 404. */
export interface FeatureFlagDeclaration {
  /** The state until an admin sets it. */
  readonly default: boolean;
  readonly description: string;
}

/**
 * Every feature flag, declared once with its default. `GET /api/features` lists exactly these;
 * `PATCH /api/admin/features` refuses any other name. A new flag is one line here plus
 * `@Feature('<name>')` on the controllers it switches.
 */
export const FEATURE_FLAGS = {
  requests: { default: true, description: 'The plugin wishlist: /api/requests' },
  submit: { default: true, description: 'Submitting a plugin through a linked forge identity: /api/submit/oauth' },
  webhooks: { default: true, description: 'The release webhook receiver: /api/webhooks/release' },
  stats: { default: true, description: 'The headline numbers: /api/stats' },
} as const satisfies Record<string, FeatureFlagDeclaration>;

export type FeatureName = keyof typeof FEATURE_FLAGS;

export const FEATURE_NAMES = Object.keys(FEATURE_FLAGS) as FeatureName[];

export type FeatureFlagState = Record<FeatureName, boolean>;

export function isFeatureName(name: string): name is FeatureName {
  return Object.hasOwn(FEATURE_FLAGS, name);
}

/** The declared defaults overlaid with the stored settings; stored names no longer declared are ignored. */
export function featureFlagState(stored: readonly { name: string; enabled: boolean }[]): FeatureFlagState {
  const state = Object.fromEntries(FEATURE_NAMES.map((name) => [name, FEATURE_FLAGS[name].default])) as FeatureFlagState;
  for (const row of stored) if (isFeatureName(row.name)) state[row.name] = row.enabled;
  return state;
}
