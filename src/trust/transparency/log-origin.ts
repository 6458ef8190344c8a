/**
 * The log's origin (C2SP tlog-checkpoint): BASE_URL's host[:port] and path, then `/log`, no scheme.
 * It names the log in every checkpoint and is the note key's name.
 */
export function logOrigin(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.host}${url.pathname.replace(/\/+$/, '')}/log`;
}
