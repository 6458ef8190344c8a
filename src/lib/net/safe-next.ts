/** Where a sign-in goes when no safe `next` was asked for. */
export const DEFAULT_NEXT = '/account';

/**
 * A local path to go to after signing in (`/account` unless a safe one was asked for). Only a
 * path on this site is taken: it starts with one `/`, never `//` or `/\` (a scheme-relative URL
 * to another host), and holds no backslash or control character (a browser drops tabs and
 * newlines while parsing, so `/\t/evil.example` would become `//evil.example`). Framework-free:
 * the server pages, the sign-in service and the browser script share it.
 */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string' || next.length > 500 || !next.startsWith('/') || next.startsWith('//')) return DEFAULT_NEXT;
  // eslint-disable-next-line no-control-regex -- finding them is the point
  return /[\u0000-\u001f\u007f\\]/.test(next) ? DEFAULT_NEXT : next;
}

/** `next` in the browser: safe by {@link safeNext}, and still on `origin` once resolved against it. */
export function sameOriginNext(next: unknown, origin: string): string {
  const path = safeNext(next);
  try {
    return new URL(path, origin).origin === origin ? path : DEFAULT_NEXT;
  } catch {
    return DEFAULT_NEXT;
  }
}
