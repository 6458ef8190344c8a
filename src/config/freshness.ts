import type { AppConfig } from './config.types';
import { integer } from './parsers';
import type { ConfigArea, EnvironmentReader } from './variable';

const FRESHNESS_LIFETIME_SECONDS = {
  name: 'FRESHNESS_LIFETIME_SECONDS',
  parser: integer({ min: 60, max: 30 * 86_400, unit: 'seconds' }),
  default: '86400',
  description:
    'How long the signed freshness statement on a `latest` answer is valid (one day by default, as PEP 458 and Notary choose for their timestamps). A new statement is issued every hour (every half lifetime, when that is shorter), so a served statement always has most of its lifetime left, and a client holding an answer frozen by an attacker or a stuck cache refuses it within one lifetime. Instances must keep their clocks in step (NTP): each issues statements on the hour by its own clock.',
};

export const FRESHNESS: ConfigArea = { title: 'Signed freshness', variables: [FRESHNESS_LIFETIME_SECONDS] };

export function readFreshness(reader: EnvironmentReader): Pick<AppConfig, 'freshnessLifetimeSeconds'> {
  return { freshnessLifetimeSeconds: reader.read(FRESHNESS_LIFETIME_SECONDS) };
}
