import type { AppConfig } from './config.types';
import { allowHostList, integer } from './parsers';
import type { ConfigArea, EnvironmentReader } from './variable';

const WEBHOOK_LEASE_MS = {
  name: 'WEBHOOK_LEASE_MS',
  parser: integer({ min: 1000, max: 3_600_000, unit: 'milliseconds' }),
  default: '60000',
  description:
    "How long a delivery attempt holds its claim between heartbeats: a crashed instance's delivery is taken up again within about this long.",
};

const SUBSCRIPTION_DISABLE_AFTER_DAYS = {
  name: 'SUBSCRIPTION_DISABLE_AFTER_DAYS',
  parser: integer({ min: 1, max: 90 }),
  default: '5',
  description:
    "How long an outbound webhook subscription's deliveries may keep failing, with no success between, before it is disabled and its owner told on /account.",
};

// Its own list, not FETCH_ALLOW_HOSTS: any signed-in user picks a subscription's URL, so a host
// the registry itself may fetch (an internal forge) is not one every user may send requests to.
const SUBSCRIPTION_ALLOW_HOSTS = {
  name: 'SUBSCRIPTION_ALLOW_HOSTS',
  parser: allowHostList,
  default: '',
  description:
    'Hosts (`host` or `host:port`) an outbound webhook subscription may name over http and that may resolve to private or loopback addresses (an internal receiver). The only way a subscription reaches a non-public address: FETCH_ALLOW_HOSTS does not apply to subscriptions. Empty: https and public addresses only.',
};

export const WEBHOOKS: ConfigArea = {
  title: 'Webhooks',
  variables: [WEBHOOK_LEASE_MS, SUBSCRIPTION_DISABLE_AFTER_DAYS, SUBSCRIPTION_ALLOW_HOSTS],
};

export function readWebhooks(
  reader: EnvironmentReader,
): Pick<AppConfig, 'webhookLeaseMs' | 'subscriptionDisableAfterDays' | 'subscriptionAllowHosts'> {
  return {
    webhookLeaseMs: reader.read(WEBHOOK_LEASE_MS),
    subscriptionDisableAfterDays: reader.read(SUBSCRIPTION_DISABLE_AFTER_DAYS),
    subscriptionAllowHosts: reader.read(SUBSCRIPTION_ALLOW_HOSTS),
  };
}
