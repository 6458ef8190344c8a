import type { AppConfig } from './config.types';
import { integer, url } from './parsers';
import { Invalid, type ConfigArea, type EnvironmentReader, type Parser } from './variable';

/**
 * Upstream's base URL, without a trailing slash. No credentials, query or fragment: the mirror
 * sends none, and the URL is named in the problems its log routes answer.
 */
const upstreamUrl: Parser<string> = {
  type: 'http(s) URL',
  parse(raw) {
    const given = url('an http(s) URL', ['http:', 'https:']).parse(raw);
    if (given instanceof Invalid) return given;
    const parsed = new URL(given);
    if (parsed.username || parsed.password || parsed.search || parsed.hash)
      return new Invalid('must be an http(s) URL without credentials, query or fragment');
    return parsed.toString().replace(/\/+$/, '');
  },
};

const MIRROR_OF = {
  name: 'MIRROR_OF',
  parser: upstreamUrl,
  unset: 'not a mirror',
  description:
    "Runs this instance as a read-only mirror of the registry at this URL (`registry serve --mirror-of <url>` sets it): it follows that registry's changes feed, re-verifies every signature and asset hash it copies, and refuses catalogue writes with 503. The upstream's host must be reachable through the SSRF-safe fetcher (FETCH_ALLOW_HOSTS for a private address).",
};

const MIRROR_POLL_INTERVAL_MS = {
  name: 'MIRROR_POLL_INTERVAL_MS',
  parser: integer({ min: 100, max: 3_600_000, unit: 'milliseconds' }),
  default: '5000',
  description: "How often a mirror reads its upstream's changes feed.",
};

const MIRROR_LOG_TIMEOUT_MS = {
  name: 'MIRROR_LOG_TIMEOUT_MS',
  parser: integer({ min: 100, max: 120_000, unit: 'milliseconds' }),
  default: '10000',
  description:
    'How long a mirror waits for its upstream when it passes a transparency-log read on (head, key, proofs, entries, tiles; docs/mirror.md): past it the read answers 504. Connecting has at most half of it.',
};

export const MIRROR: ConfigArea = { title: 'Mirror', variables: [MIRROR_OF, MIRROR_POLL_INTERVAL_MS, MIRROR_LOG_TIMEOUT_MS] };

export function readMirror(reader: EnvironmentReader): Pick<AppConfig, 'mirrorOf' | 'mirrorPollIntervalMs' | 'mirrorLogTimeoutMs'> {
  return {
    mirrorOf: reader.read(MIRROR_OF) ?? null,
    mirrorPollIntervalMs: reader.read(MIRROR_POLL_INTERVAL_MS),
    mirrorLogTimeoutMs: reader.read(MIRROR_LOG_TIMEOUT_MS),
  };
}
