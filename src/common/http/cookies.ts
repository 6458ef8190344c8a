import type { IncomingHttpHeaders } from 'node:http';

/** Blanks RFC 6265 allows around a name, a value and the `=` between them (SP and HTAB). */
const BLANKS = /^[ \t]+|[ \t]+$/g;

/**
 * The cookies of a `Cookie` header (RFC 6265 section 5.4's cookie-string, as browsers, curl and
 * proxies send it): pairs split on `;`, name and value trimmed of blanks, one pair of surrounding
 * double quotes dropped, percent-escapes decoded when they decode. The first pair with a name wins;
 * a piece without `=` or with an empty name is skipped. Linear in the header, whose size the HTTP
 * server already bounds.
 */
export function parseCookieHeader(header: string | undefined): ReadonlyMap<string, string> {
  const cookies = new Map<string, string>();
  if (header === undefined) return cookies;
  // Node joins repeated Cookie header lines with "; " into one string.
  for (const piece of header.split(';')) {
    const eq = piece.indexOf('=');
    if (eq < 0) continue;
    const name = piece.slice(0, eq).replace(BLANKS, '');
    if (name === '' || cookies.has(name)) continue;
    let value = piece.slice(eq + 1).replace(BLANKS, '');
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    cookies.set(name, decodeOrKeep(value));
  }
  return cookies;
}

function decodeOrKeep(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

const parsed = new WeakMap<object, ReadonlyMap<string, string>>();

/**
 * The request's cookies, parsed once and remembered for the rest of the request: the session
 * guard, the response cache and the web pages all read this one answer, so they never disagree
 * about whether a request carries a cookie.
 */
export function requestCookies(request: { headers: IncomingHttpHeaders }): ReadonlyMap<string, string> {
  let cookies = parsed.get(request);
  if (!cookies) {
    cookies = parseCookieHeader(request.headers.cookie);
    parsed.set(request, cookies);
  }
  return cookies;
}
