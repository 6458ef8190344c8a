/** A repository URL broken into the parts that identify it. */
export interface RepoUrlParts {
  /** The cleaned URL: scheme, host and path segments only. */
  url: URL;
  /** Lowercased host without `www.` or a trailing dot, with the port when it is not the default. */
  hostKey: string;
  /** Decoded path segments, case preserved, without a trailing `.git`. */
  segments: string[];
}

export type RepoUrlSplit = ({ ok: true } & RepoUrlParts) | { ok: false; message: string };

export const MAX_REPO_URL_LENGTH = 2048;

const HTTP_PREFIX = /^https?:\/\/[^/\\]/i;
const SCHEME_PREFIX = /^([A-Za-z][A-Za-z0-9+.-]*):/;
// eslint-disable-next-line no-control-regex
const WHITESPACE_OR_CONTROL = /[\s\u0000-\u001f\u007f-\u009f]/;
// Owner, group and repository names on every forge we know (plus sourcehut's `~user`).
const SEGMENT = /^[A-Za-z0-9_.~-]+$/;

export function hostKeyOf(url: URL): string {
  const host = url.hostname
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^www\./, '');
  return url.port ? `${host}:${url.port}` : host;
}

/**
 * Splits an http(s) repository URL into host and path segments, refusing anything that is not
 * plainly one: other schemes, credentials, dot segments, encoded slashes, odd characters.
 * Query and fragment are dropped, as are a trailing slash and a `.git` suffix.
 */
export function splitRepositoryUrl(input: string): RepoUrlSplit {
  if (typeof input !== 'string') return { ok: false, message: 'repository URL must be a string' };
  const text = input.trim();
  if (text === '') return { ok: false, message: 'repository URL is empty' };
  if (text.length > MAX_REPO_URL_LENGTH) {
    return { ok: false, message: `repository URL is longer than ${MAX_REPO_URL_LENGTH} characters` };
  }
  if (WHITESPACE_OR_CONTROL.test(text)) {
    return { ok: false, message: 'repository URL must not contain whitespace or control characters' };
  }
  if (text.includes('\\')) return { ok: false, message: 'repository URL must not contain backslashes' };
  if (!HTTP_PREFIX.test(text)) {
    const scheme = SCHEME_PREFIX.exec(text)?.[1];
    if (scheme && !/^https?$/i.test(scheme)) {
      return { ok: false, message: `repository URL must use http or https, not ${scheme.toLowerCase()}:` };
    }
    return { ok: false, message: 'repository URL must be an absolute http(s) URL such as https://host/owner/repo' };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: 'repository URL is not a valid URL' };
  }
  if (url.username || url.password) return { ok: false, message: 'repository URL must not contain credentials' };
  if (!url.hostname) return { ok: false, message: 'repository URL has no host' };

  // The URL parser has already resolved dot segments; read the path as written to refuse them.
  const afterAuthority = text.slice(text.indexOf('//') + 2);
  const slash = afterAuthority.search(/[/?#]/);
  const writtenPath = slash === -1 || afterAuthority[slash] !== '/' ? '' : afterAuthority.slice(slash).split(/[?#]/)[0];
  const segments = writtenPath.split('/').slice(1);
  while (segments.length > 0 && segments[segments.length - 1] === '') segments.pop();
  const decoded: string[] = [];
  for (const segment of segments) {
    let value: string;
    try {
      value = decodeURIComponent(segment);
    } catch {
      return { ok: false, message: 'repository URL has a malformed percent-encoding' };
    }
    if (value === '') return { ok: false, message: 'repository URL path has an empty segment' };
    if (value === '.' || value === '..') return { ok: false, message: 'repository URL path must not contain "." or ".."' };
    if (value === '-') return { ok: false, message: 'repository URL points inside a repository page; use the repository root' };
    if (!SEGMENT.test(value)) {
      return { ok: false, message: `repository URL path segment "${value}" has characters no forge allows in names` };
    }
    decoded.push(value);
  }
  if (decoded.length > 0 && /\.git$/i.test(decoded[decoded.length - 1])) {
    decoded[decoded.length - 1] = decoded[decoded.length - 1].slice(0, -4);
    if (decoded[decoded.length - 1] === '') decoded.pop();
  }
  if (decoded.length < 2) {
    return { ok: false, message: 'repository URL must name an owner and a repository: scheme://host/owner/repo' };
  }
  const clean = new URL(`${url.protocol}//${url.host}/${decoded.join('/')}`);
  return { ok: true, url: clean, hostKey: hostKeyOf(url), segments: decoded };
}
