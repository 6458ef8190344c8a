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
  description:
    'Hosts that asset fetches, icons and screenshots, forge calls and forge sign-in (token exchange, profile read) may reach over http and on private or loopback addresses (an internal forge); empty: https and public addresses only. Outbound webhook subscriptions and the README image proxy never use it (see SUBSCRIPTION_ALLOW_HOSTS, IMAGE_PROXY_ALLOW_HOSTS).',
};
// Its own list, not FETCH_ALLOW_HOSTS: any README names the images the proxy fetches for anonymous
// visitors, so a host trusted for a forge would otherwise be readable through the proxy.
const IMAGE_PROXY_ALLOW_HOSTS = {
  name: 'IMAGE_PROXY_ALLOW_HOSTS',
  parser: allowHostList,
  default: '',
  description:
    'Hosts (`host` or `host:port`) the README image proxy may fetch over http and that may resolve to private or loopback addresses (an internal image host). The only way the proxy reaches a non-public address: FETCH_ALLOW_HOSTS does not apply to it. Empty: https and public addresses only.',
};

const PICTURE_MEMORY_BYTES = {
  name: 'PICTURE_MEMORY_BYTES',
  parser: integer({ min: 0, unit: 'bytes' }),
  default: String(64 * 1024 * 1024),
  description:
    'Picture bytes one instance holds at once (icons, screenshots and README images: downloads as they arrive, sources being decoded, encodings until they are stored, which is as soon as each is made). A picture that would pass it is left out of its release with a warning (the README proxy answers 503 image-proxy-busy).',
};
const PICTURE_MEMORY_BYTES_PER_USER = {
  name: 'PICTURE_MEMORY_BYTES_PER_USER',
  parser: integer({ min: 0, unit: 'bytes' }),
  default: String(32 * 1024 * 1024),
  description:
    "The same bound for one publisher (a webhook's release counts for its plugin, the README proxy for all its visitors together), so one cannot take the whole instance bound. Keep it at least the `images.max_bytes` setting, or pictures that large are always left out.",
};

const PICTURE_WAIT_MS = {
  name: 'PICTURE_WAIT_MS',
  parser: integer({ min: 0, max: 3_600_000, unit: 'milliseconds' }),
  default: '30000',
  description:
    "How long one release's icon and screenshots may wait, all together, for their turns to be downloaded and decoded (an instance decodes one picture at a time and downloads the next meanwhile, so pictures queue without being held). A picture still waiting then is left out of its release with a warning.",
};

export const INGEST: ConfigArea = {
  title: 'Ingest',
  variables: [
    HASH_BUDGET_BYTES,
    FETCH_ALLOW_HOSTS,
    IMAGE_PROXY_ALLOW_HOSTS,
    PICTURE_MEMORY_BYTES,
    PICTURE_MEMORY_BYTES_PER_USER,
    PICTURE_WAIT_MS,
  ],
};

export function readIngest(
  reader: EnvironmentReader,
): Pick<
  AppConfig,
  'hashBudgetBytes' | 'fetchAllowHosts' | 'imageProxyAllowHosts' | 'pictureMemoryBytes' | 'pictureMemoryBytesPerUser' | 'pictureWaitMs'
> {
  return {
    hashBudgetBytes: reader.read(HASH_BUDGET_BYTES),
    fetchAllowHosts: reader.read(FETCH_ALLOW_HOSTS),
    imageProxyAllowHosts: reader.read(IMAGE_PROXY_ALLOW_HOSTS),
    pictureMemoryBytes: reader.read(PICTURE_MEMORY_BYTES),
    pictureMemoryBytesPerUser: reader.read(PICTURE_MEMORY_BYTES_PER_USER),
    pictureWaitMs: reader.read(PICTURE_WAIT_MS),
  };
}
