import type { AppConfig } from './config.types';
import { integer, url } from './parsers';
import type { ConfigArea, EnvironmentReader } from './variable';

// The embedded default is one small process with a 400 MiB budget under load; a server has room.
const MEMORY_MB_ON_POSTGRES = 64;
const MEMORY_MB_EMBEDDED = 16;

const REDIS_URL = {
  name: 'REDIS_URL',
  parser: url('a redis:// or rediss:// URL', ['redis:', 'rediss:']),
  unset: "each instance's own memory",
  description: 'Redis for the response cache and rate-limit counters, shared by every instance.',
};
const RESPONSE_CACHE_TTL_S = {
  name: 'RESPONSE_CACHE_TTL_S',
  parser: integer({ min: 0, max: 3600, unit: 'seconds' }),
  default: '30',
  description:
    'How long an anonymous catalogue response may be served from the response cache (0 turns it off); any catalogue change empties the cache at once.',
};
const RESPONSE_CACHE_MEMORY_MB = {
  name: 'RESPONSE_CACHE_MEMORY_MB',
  parser: integer({ min: 1, max: 4096, unit: 'MiB' }),
  unset: `\`${MEMORY_MB_ON_POSTGRES}\` with \`DATABASE_URL\`, \`${MEMORY_MB_EMBEDDED}\` embedded`,
  description: "The in-memory response cache's size limit (without `REDIS_URL`).",
};

export const CACHE: ConfigArea = {
  title: 'Response cache and Redis',
  variables: [REDIS_URL, RESPONSE_CACHE_TTL_S, RESPONSE_CACHE_MEMORY_MB],
};

export function readCache(
  reader: EnvironmentReader,
  databaseUrl: string | null,
): Pick<AppConfig, 'redisUrl' | 'responseCacheTtlSeconds' | 'responseCacheMemoryMb'> {
  return {
    redisUrl: reader.read(REDIS_URL) ?? null,
    responseCacheTtlSeconds: reader.read(RESPONSE_CACHE_TTL_S),
    responseCacheMemoryMb: reader.read(RESPONSE_CACHE_MEMORY_MB) ?? (databaseUrl ? MEMORY_MB_ON_POSTGRES : MEMORY_MB_EMBEDDED),
  };
}
