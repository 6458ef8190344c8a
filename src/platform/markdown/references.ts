import { checkRepoFilePath } from '../forges/urls';
import type { ReadmeContext } from './context';

export type ReferenceKind = 'link' | 'image';

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
const ALLOWED_SCHEMES: Record<ReferenceKind, ReadonlySet<string>> = {
  link: new Set(['http', 'https', 'mailto']),
  image: new Set(['http', 'https']),
};
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARACTERS = /[\s\u0000-\u001f\u007f-\u009f\\]/;
// Decoded file names may hold spaces; nothing else invisible, and no backslash.
// eslint-disable-next-line no-control-regex
const UNSAFE_IN_FILE_NAME = /[\u0000-\u001f\u007f-\u009f\\]/;

/** Whether markdown-it may turn a destination into a link or image at all. */
export function isAllowedDestination(destination: string): boolean {
  const scheme = SCHEME.exec(destination.trim())?.[1].toLowerCase();
  return scheme === undefined || ALLOWED_SCHEMES.link.has(scheme);
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && !url.username && !url.password;
  } catch {
    return false;
  }
}

function absoluteReference(reference: string, scheme: string, kind: ReferenceKind): string | null {
  if (!ALLOWED_SCHEMES[kind].has(scheme)) return null;
  if (scheme === 'mailto') return reference;
  return isHttpUrl(reference) ? new URL(reference).href : null;
}

/** Resolves a relative path against the README's directory; null when it climbs above the root. */
function repositoryPath(path: string, readmeDir: string): string | null {
  const segments = path.startsWith('/') || readmeDir === '' ? [] : readmeDir.split('/');
  for (const encoded of path.split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(encoded);
    } catch {
      return null;
    }
    if (segment.includes('/') || UNSAFE_IN_FILE_NAME.test(segment)) return null;
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) return null;
      segments.pop();
      continue;
    }
    segments.push(segment);
  }
  const joined = segments.join('/');
  return checkRepoFilePath(joined).ok ? joined : null;
}

function repositoryReference(reference: string, kind: ReferenceKind, context: ReadmeContext): string | null {
  const hashAt = reference.indexOf('#');
  const fragment = hashAt === -1 ? '' : reference.slice(hashAt);
  const path = (hashAt === -1 ? reference : reference.slice(0, hashAt)).split('?')[0];
  if (path === '') return null;
  const filePath = repositoryPath(path, context.readmeDir);
  if (filePath === null) return null;
  const target = kind === 'link' ? context.linkUrl(filePath) : context.imageUrl(filePath);
  if (target === null || !isHttpUrl(target)) return null;
  return kind === 'link' && fragment.length > 1 ? `${target}${fragment}` : target;
}

/**
 * Where a link or image in a README may point, or null to drop it:
 * - `#anchor` links stay as written (images cannot be anchors);
 * - absolute http(s) URLs stay (links may also be mailto:); every other scheme is dropped;
 * - protocol-relative `//host/x` is read as `https://host/x`;
 * - anything else is a repository file: resolved against the README's directory (a leading `/`
 *   means the repository root, as on GitHub), its query dropped, and mapped through the context;
 *   a path that climbs above the repository root is dropped, not clamped, since clamping would
 *   silently point at some other file.
 * URLs with credentials, whitespace, control characters or backslashes are dropped.
 */
export function rewriteReference(reference: string, kind: ReferenceKind, context: ReadmeContext): string | null {
  if (reference === '' || UNSAFE_CHARACTERS.test(reference)) return null;
  if (reference.startsWith('#')) return kind === 'link' && reference.length > 1 ? reference : null;
  const scheme = SCHEME.exec(reference)?.[1].toLowerCase();
  if (scheme !== undefined) return absoluteReference(reference, scheme, kind);
  if (reference.startsWith('//')) return absoluteReference(`https:${reference}`, 'https', kind);
  return repositoryReference(reference, kind, context);
}
