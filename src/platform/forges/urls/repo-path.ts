import type { ForgeType } from '../../../lib/forge/types';
import { forgeAdapter } from '../adapters';

/** Result of checking one untrusted path-like input. */
export type PathCheck = { ok: true; value: string } | { ok: false; message: string };

export const MAX_FILE_PATH_LENGTH = 1024;
export const MAX_TAG_LENGTH = 255;

// GitHub, GitLab and Gitea all restrict owner, group and repository names to these characters.
const REPO_SEGMENT = /^[A-Za-z0-9_.-]+$/;
// Release tags are semver with an optional prefix; refusing the rest of git's ref alphabet
// (`%`, `?`, `#`, `:`, `@`, `~`, ...) means no tag can change how a URL is read.
const TAG_COMPONENT = /^[A-Za-z0-9_+-][A-Za-z0-9_.+-]*$/;
const SCHEME_PREFIX = /^[A-Za-z][A-Za-z0-9+.-]*:/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Whether path segments name a repository on a forge type: its own shape, then the names all forges share. */
export function repoSegmentsProblem(type: ForgeType, segments: readonly string[]): string | null {
  const shape = forgeAdapter(type).repoShapeProblem(segments);
  if (shape) return shape;
  for (const segment of segments) {
    if (!REPO_SEGMENT.test(segment) || segment === '.' || segment === '..') {
      return `"${segment}" is not a valid owner, group or repository name`;
    }
  }
  return null;
}

/** Checks `owner/repo` (or `group/sub/project`) for a forge type. */
export function checkRepoPath(type: ForgeType, repoPath: string): PathCheck {
  if (typeof repoPath !== 'string' || repoPath === '') return { ok: false, message: 'repository path is empty' };
  const problem = repoSegmentsProblem(type, repoPath.split('/'));
  return problem ? { ok: false, message: problem } : { ok: true, value: repoPath };
}

/**
 * Checks a release tag used as a git ref in forge URLs. Follows git's ref-name rules
 * (no `..`, no empty or dot-led components, no `.lock` components, no trailing dot) over a
 * conservative alphabet.
 */
export function checkTag(tag: string): PathCheck {
  if (typeof tag !== 'string' || tag === '') return { ok: false, message: 'tag is empty' };
  if (tag.length > MAX_TAG_LENGTH) return { ok: false, message: `tag is longer than ${MAX_TAG_LENGTH} characters` };
  if (tag.includes('..')) return { ok: false, message: 'tag must not contain ".."' };
  if (tag.endsWith('.')) return { ok: false, message: 'tag must not end with "."' };
  for (const component of tag.split('/')) {
    if (!TAG_COMPONENT.test(component) || component.endsWith('.lock')) {
      return { ok: false, message: `tag "${tag}" is not a plain tag name (letters, digits, . _ + - and /)` };
    }
  }
  return { ok: true, value: tag };
}

/**
 * Checks a path relative to the repository root, as a file path, never a URL: no absolute
 * path, no backslash, no control character, no `.`/`..`/empty segment, no `scheme:` prefix.
 */
export function checkRepoFilePath(path: string): PathCheck {
  if (typeof path !== 'string' || path === '') return { ok: false, message: 'file path is empty' };
  if (path.length > MAX_FILE_PATH_LENGTH) {
    return { ok: false, message: `file path is longer than ${MAX_FILE_PATH_LENGTH} characters` };
  }
  if (CONTROL.test(path)) return { ok: false, message: 'file path contains a control character' };
  if (path.includes('\\')) return { ok: false, message: 'file path contains a backslash' };
  if (path.startsWith('/')) return { ok: false, message: 'file path must be relative to the repository root' };
  if (SCHEME_PREFIX.test(path)) return { ok: false, message: 'file path looks like a URL' };
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') {
      return { ok: false, message: 'file path must not contain empty, "." or ".." segments' };
    }
  }
  return { ok: true, value: path };
}

/** Percent-encodes each segment of a checked path, keeping the separating slashes. */
export function encodeSegments(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}
