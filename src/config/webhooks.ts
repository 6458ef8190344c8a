import type { AppConfig } from './config.types';
import { integer } from './parsers';
import type { ConfigArea, EnvironmentReader } from './variable';

const WEBHOOK_LEASE_MS = {
  name: 'WEBHOOK_LEASE_MS',
  parser: integer({ min: 1000, max: 3_600_000, unit: 'milliseconds' }),
  default: '60000',
  description: "How long a delivery attempt holds its claim between heartbeats: a crashed instance's delivery is taken up again within about this long.",
};

export const WEBHOOKS: ConfigArea = { title: 'Webhooks', variables: [WEBHOOK_LEASE_MS] };

export function readWebhooks(reader: EnvironmentReader): Pick<AppConfig, 'webhookLeaseMs'> {
  return { webhookLeaseMs: reader.read(WEBHOOK_LEASE_MS) };
}
