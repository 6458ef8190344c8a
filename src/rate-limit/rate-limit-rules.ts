import { createHash } from 'node:crypto';

/** What a request is counted as; each bucket has its own counters and its own limit setting. */
export type RateLimitBucket = 'read' | 'publish' | 'webhook' | 'signin' | 'wizard';

export type RateLimitSetting = 'ratelimit.public_read_per_min' | 'ratelimit.publish_per_min' | 'ratelimit.webhook_per_min' | 'ratelimit.signin_per_min';

export interface RateLimitRule {
  bucket: RateLimitBucket;
  /** The setting holding this bucket's requests per minute. */
  setting: RateLimitSetting;
  /** Who is counted: `ip:<address>` or `token:<hash of the bearer token>`. */
  subject: string;
  /**
   * What a broken counter store (Redis down) means: true lets the request through (reads and
   * webhooks, which must keep flowing), false refuses it with 503 (publish, sign-in, the wizard:
   * writes and credential guesses must never run unmetered).
   */
  failOpen: boolean;
}

export interface RequestFacts {
  method: string;
  /** The path without the query string. */
  path: string;
  /** The client address after TRUST_PROXY (Express `req.ip`). */
  ip: string;
  authorization: string | undefined;
}

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/** The token itself is never kept, in memory or in Redis: only a digest names its counter. */
function bearerSubject(authorization: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match ? `token:${createHash('sha256').update(match[1]).digest('base64url').slice(0, 32)}` : null;
}

/**
 * Which limit a request counts against (DECISIONS 10): per IP on public reads, per publisher
 * token (the IP when there is none) on publish, per IP on webhooks, sign-in and the install
 * wizard. Other writes (wishlist votes, admin changes) are behind a session and not limited here.
 */
export function rateLimitRule(request: RequestFacts): RateLimitRule | null {
  const { method, path } = request;
  const ip = `ip:${request.ip}`;
  // Never throttled: probes and scrapers must reach an instance that is otherwise busy.
  if (under(path, '/health') || under(path, '/metrics')) return null;
  if (under(path, '/auth')) return { bucket: 'signin', setting: 'ratelimit.signin_per_min', subject: ip, failOpen: false };
  if (under(path, '/api/init')) return { bucket: 'wizard', setting: 'ratelimit.signin_per_min', subject: ip, failOpen: false };
  const read = method === 'GET' || method === 'HEAD';
  if (read) return { bucket: 'read', setting: 'ratelimit.public_read_per_min', subject: ip, failOpen: true };
  if (under(path, '/api/publish')) {
    return { bucket: 'publish', setting: 'ratelimit.publish_per_min', subject: bearerSubject(request.authorization) ?? ip, failOpen: false };
  }
  if (under(path, '/api/webhooks')) return { bucket: 'webhook', setting: 'ratelimit.webhook_per_min', subject: ip, failOpen: true };
  return null;
}
