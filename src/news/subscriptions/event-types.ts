/**
 * The events a subscription may ask for, and the audit actions they come from (the
 * `subscription_fan_out` trigger on `audit_entry` maps them the same way: change both together,
 * with a migration).
 */
export const PUBLIC_EVENT_TYPES = [
  'release.published',
  'release.yanked',
  'release.unyanked',
  'plugin.created',
  'plugin.owners_changed',
  'plugin.deprecated',
  'plugin.undeprecated',
] as const;

/** Operational events: registry-wide, for admins only. */
export const ADMIN_EVENT_TYPES = ['webhook.delivery_failed', 'ingest.failed', 'key.rotated'] as const;

export const EVENT_TYPES = [...PUBLIC_EVENT_TYPES, ...ADMIN_EVENT_TYPES] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export function isAdminEventType(type: string): boolean {
  return (ADMIN_EVENT_TYPES as readonly string[]).includes(type);
}

/** Which audit actions raise which event (the trigger's CASE). */
export const EVENT_OF_ACTION: Readonly<Record<string, EventType>> = {
  'plugin.publish': 'release.published',
  'plugin.yank': 'release.yanked',
  'plugin.unyank': 'release.unyanked',
  'plugin.claim': 'plugin.created',
  'plugin.owners_change': 'plugin.owners_changed',
  'plugin.deprecate': 'plugin.deprecated',
  'plugin.undeprecate': 'plugin.undeprecated',
  'webhook.delivery_failed': 'webhook.delivery_failed',
  'plugin.publish_invalid': 'ingest.failed',
  'plugin.publish_asset_fail': 'ingest.failed',
  'plugin.manifest_asset_missing': 'ingest.failed',
  'key.rotate': 'key.rotated',
};

/** What a subscription covers: one plugin, a kind's plugins, the plugins its owner owns, or (admins) every plugin. */
export const SUBSCRIPTION_SCOPES = ['plugin', 'kind', 'owned', 'registry'] as const;
export type SubscriptionScope = (typeof SUBSCRIPTION_SCOPES)[number];
