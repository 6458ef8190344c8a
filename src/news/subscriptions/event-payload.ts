import type { SubscriptionEventEntity } from './entities/subscription-event.entity';
import { isAdminEventType } from './event-types';

/** The body of a delivery, per Standard Webhooks: `{type, timestamp, data}`. */
export interface EventPayload {
  type: string;
  /** When the event happened (ISO 8601). */
  timestamp: string;
  data: Record<string, unknown>;
}

const pick = (details: Record<string, unknown>, keys: readonly string[]) =>
  Object.fromEntries(keys.filter((key) => details[key] !== undefined).map((key) => [key, details[key]]));

/** What each public event tells beyond the slug: only what the catalogue shows anyway. */
const PUBLIC_FIELDS: Readonly<Record<string, readonly string[]>> = {
  'release.published': ['version'],
  'release.yanked': ['version', 'reason'],
  'release.unyanked': ['version'],
  'plugin.created': ['repoUrl'],
  'plugin.owners_changed': [],
  'plugin.deprecated': ['message', 'replacement'],
  'plugin.undeprecated': [],
};

/**
 * Builds the event's payload. Public events carry public facts only (slug, kind, version, the
 * plugin's page); operational events (admins only) carry the audit entry's details as well.
 */
export function eventPayload(event: SubscriptionEventEntity, baseUrl: string): EventPayload {
  const details = event.details ?? {};
  const plugin = event.slug ? { slug: event.slug, kind: event.kind, url: `${baseUrl}/plugins/${event.slug}` } : {};
  const data = isAdminEventType(event.type)
    ? { ...plugin, action: event.action, details }
    : { ...plugin, ...pick(details, PUBLIC_FIELDS[event.type] ?? []) };
  return { type: event.type, timestamp: event.createdAt.toISOString(), data };
}
