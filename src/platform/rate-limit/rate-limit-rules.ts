import { createHash } from 'node:crypto';

/** What a request is counted as; each bucket has its own counters and its own limit setting. */
export type RateLimitBucket = 'read' | 'publish' | 'webhook' | 'signin' | 'wizard' | 'signin-failure' | 'password-check' | UserActionBucket;

/** Signed-in actions, counted per user once the session is known (not in the middleware). */
export type UserActionBucket = 'wishlist-request' | 'wishlist-vote' | 'submit' | 'subscription-ping';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const QUARTER_HOUR_MS = 15 * MINUTE_MS;

/** Each limit setting and the fixed window its number counts in. */
export const LIMIT_WINDOWS_MS = {
  'ratelimit.public_read_per_min': MINUTE_MS,
  'ratelimit.publish_per_min': MINUTE_MS,
  'ratelimit.webhook_per_min': MINUTE_MS,
  'ratelimit.signin_per_min': MINUTE_MS,
  'ratelimit.wishlist_request_per_hour': HOUR_MS,
  'ratelimit.wishlist_vote_per_min': MINUTE_MS,
  'ratelimit.submit_per_hour': HOUR_MS,
  'ratelimit.subscription_ping_per_hour': HOUR_MS,
  'ratelimit.signin_failures_per_account': QUARTER_HOUR_MS,
  'ratelimit.signin_failures_per_ip': QUARTER_HOUR_MS,
  'ratelimit.password_checks_per_hour': HOUR_MS,
} as const;

export type RateLimitSetting = keyof typeof LIMIT_WINDOWS_MS;

export interface RateLimitRule {
  bucket: RateLimitBucket;
  /** The setting holding this bucket's number of requests per window. */
  setting: RateLimitSetting;
  /** Who is counted: `ip:<client address key>`, `token:<hash of the bearer token>` or `user:<id>`. */
  subject: string;
  /**
   * What a broken counter store (Redis down) means: true lets the request through (reads and
   * webhooks, which must keep flowing), false refuses it with 503 (publish, sign-in, the wizard,
   * signed-in actions: writes and credential guesses must never run unmetered).
   */
  failOpen: boolean;
  /**
   * Publish with a bearer credential: the token's own subject. The request is counted against
   * the client address until the token verifies (a fresh random bearer on each request must not
   * buy a fresh bucket); a token that has verified within the window is counted under this subject.
   */
  tokenSubject?: string;
}

export interface RequestFacts {
  method: string;
  /** The path without the query string. */
  path: string;
  /** Who per-address limits count the caller as: clientAddressKey of its address after TRUST_PROXY. */
  client: string;
  authorization: string | undefined;
}

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/** The token itself is never kept, in memory or in Redis: only a digest names its counter. */
export function bearerSubject(bearer: string): string {
  return `token:${createHash('sha256').update(bearer).digest('base64url').slice(0, 32)}`;
}

function bearerOf(authorization: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match ? match[1] : null;
}

/**
 * Which limit a request counts against
 * (docs/decisions.md#wishlist-pages-site-settings-and-rate-limits): per IP on public reads, on
 * webhooks, sign-in and the install wizard; on publish per client address until the bearer token
 * verifies, then per token. Signed-in actions are limited per user after the session guard
 * (`userActionRule`); other session writes (admin changes) are not limited here.
 */
export function rateLimitRule(request: RequestFacts): RateLimitRule | null {
  const { method, path } = request;
  const ip = `ip:${request.client}`;
  // Never throttled: probes and scrapers must reach an instance that is otherwise busy.
  if (under(path, '/health') || under(path, '/metrics')) return null;
  if (under(path, '/auth') || under(path, '/api/auth/sign-in'))
    return { bucket: 'signin', setting: 'ratelimit.signin_per_min', subject: ip, failOpen: false };
  if (under(path, '/api/init')) return { bucket: 'wizard', setting: 'ratelimit.signin_per_min', subject: ip, failOpen: false };
  const read = method === 'GET' || method === 'HEAD';
  if (read) return { bucket: 'read', setting: 'ratelimit.public_read_per_min', subject: ip, failOpen: true };
  if (under(path, '/api/publish')) {
    const bearer = bearerOf(request.authorization);
    const rule: RateLimitRule = { bucket: 'publish', setting: 'ratelimit.publish_per_min', subject: ip, failOpen: false };
    return bearer ? { ...rule, tokenSubject: bearerSubject(bearer) } : rule;
  }
  if (under(path, '/api/webhooks')) return { bucket: 'webhook', setting: 'ratelimit.webhook_per_min', subject: ip, failOpen: true };
  return null;
}

const USER_ACTION_SETTINGS: Readonly<Record<UserActionBucket, RateLimitSetting>> = {
  'wishlist-request': 'ratelimit.wishlist_request_per_hour',
  'wishlist-vote': 'ratelimit.wishlist_vote_per_min',
  submit: 'ratelimit.submit_per_hour',
  'subscription-ping': 'ratelimit.subscription_ping_per_hour',
};

/** A signed-in action counted per user; it fails closed like every other metered write. */
export function userActionRule(bucket: UserActionBucket, userId: string): RateLimitRule {
  return { bucket, setting: USER_ACTION_SETTINGS[bucket], subject: `user:${userId}`, failOpen: false };
}

/**
 * Failed sign-ins, counted only when they fail and judged before the next attempt: per local
 * account (`account:<user id>`) and per client address (`ip:<client address key>`), in 15-minute windows.
 */
export function signInFailureRule(scope: 'account' | 'ip', subject: string): RateLimitRule {
  const setting = scope === 'account' ? 'ratelimit.signin_failures_per_account' : 'ratelimit.signin_failures_per_ip';
  return { bucket: 'signin-failure', setting, subject: `${scope}:${subject}`, failOpen: false };
}

/**
 * A signed-in account's password work, counted whether it succeeds or not (each costs a scrypt):
 * changing the password and confirming it is you with the current one, per account
 * (`account:<user id>`) and per client address (`ip:<address>`), one setting for both.
 */
export function passwordCheckRule(scope: 'account' | 'ip', subject: string): RateLimitRule {
  return { bucket: 'password-check', setting: 'ratelimit.password_checks_per_hour', subject: `${scope}:${subject}`, failOpen: false };
}

/** Cooldowns: one action per subject, then none until the setting's seconds have passed. */
export const COOLDOWN_SETTINGS = { reconcile: 'ratelimit.reconcile_cooldown_s' } as const;

export type CooldownName = keyof typeof COOLDOWN_SETTINGS;
export type CooldownSetting = (typeof COOLDOWN_SETTINGS)[CooldownName];
