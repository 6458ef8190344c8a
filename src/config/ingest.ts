import type { AppConfig } from './config.types';
import { allowHostList, integer } from './parsers';
import type { ConfigArea, EnvironmentReader } from './variable';

const HASH_BUDGET_BYTES = {
  name: 'HASH_BUDGET_BYTES',
  parser: integer({ min: 0, unit: 'bytes' }),
  default: '524288000',
  description: 'The default of the `hash.budget_bytes` setting: larger assets are recorded but not hashed or signed.',
};
const FETCH_ALLOW_HOSTS = {
  name: 'FETCH_ALLOW_HOSTS',
  parser: allowHostList,
  default: '',
  description: 'Hosts that asset fetches, forge calls and forge sign-in (token exchange, profile read) may reach over http and on private or loopback addresses (an internal forge); empty: https and public addresses only. Outbound webhook subscriptions never use it (see SUBSCRIPTION_ALLOW_HOSTS).',
};

export const INGEST: ConfigArea = { title: 'Ingest', variables: [HASH_BUDGET_BYTES, FETCH_ALLOW_HOSTS] };

export function readIngest(reader: EnvironmentReader): Pick<AppConfig, 'hashBudgetBytes' | 'fetchAllowHosts'> {
  return { hashBudgetBytes: reader.read(HASH_BUDGET_BYTES), fetchAllowHosts: reader.read(FETCH_ALLOW_HOSTS) };
}
