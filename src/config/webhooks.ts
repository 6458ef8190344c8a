import type { AppConfig } from './config.types';
import { integer } from './parsers';
import type { ConfigArea, EnvironmentReader } from './variable';

const WEBHOOK_LEASE_MS = {
  name: 'WEBHOOK_LEASE_MS',
  parser: integer({ min: 1000, max: 3_600_000, unit: 'milliseconds' }),
  default: '60000',
  description: "How long a delivery attempt holds its claim between heartbeats: a crashed instance's delivery is taken up again within about this long.",
};

const SUBSCRIPTION_DISABLE_AFTER_DAYS = {
  name: 'SUBSCRIPTION_DISABLE_AFTER_DAYS',
  parser: integer({ min: 1, max: 90 }),
  default: '5',
  description: "How long an outbound webhook subscription's deliveries may keep failing, with no success between, before it is disabled and its owner told on /account.",
};

export const WEBHOOKS: ConfigArea = { title: 'Webhooks', variables: [WEBHOOK_LEASE_MS, SUBSCRIPTION_DISABLE_AFTER_DAYS] };

export function readWebhooks(reader: EnvironmentReader): Pick<AppConfig, 'webhookLeaseMs' | 'subscriptionDisableAfterDays'> {
  return { webhookLeaseMs: reader.read(WEBHOOK_LEASE_MS), subscriptionDisableAfterDays: reader.read(SUBSCRIPTION_DISABLE_AFTER_DAYS) };
}
