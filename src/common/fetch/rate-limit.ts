import type { IncomingHttpHeaders } from 'node:http';

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** The most a forge may ask us to wait: beyond it the next regular pass comes sooner anyway. */
const MAX_WAIT_MS = 6 * 60 * 60 * 1000;

/**
 * How long a forge asked us to stay away, from its answer's headers, or null when it did not:
 * `Retry-After` (seconds or an HTTP date; every forge), else an exhausted quota's reset time
 * (`X-RateLimit-Remaining: 0` + `X-RateLimit-Reset` epoch seconds on GitHub and Gitea,
 * `RateLimit-Remaining`/`RateLimit-Reset` on GitLab).
 */
export function rateLimitWaitMs(headers: IncomingHttpHeaders, nowMs: number): number | null {
  const retryAfter = header(headers, 'retry-after');
  if (retryAfter !== undefined) {
    const seconds = /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) * 1000 : Date.parse(retryAfter) - nowMs;
    if (Number.isFinite(seconds)) return Math.min(Math.max(seconds, 0), MAX_WAIT_MS);
  }
  for (const prefix of ['x-ratelimit', 'ratelimit']) {
    const remaining = header(headers, `${prefix}-remaining`);
    const reset = header(headers, `${prefix}-reset`);
    if (remaining?.trim() === '0' && reset !== undefined && /^\d+$/.test(reset.trim())) {
      return Math.min(Math.max(Number(reset) * 1000 - nowMs, 0), MAX_WAIT_MS);
    }
  }
  return null;
}
