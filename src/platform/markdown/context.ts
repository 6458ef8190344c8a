import { checkRepoFilePath, checkRepoPath, checkTag, ForgeUrlError, rawFileUrl } from '../forges/urls';
import type { ForgeEndpoints } from '../forges/urls';

/**
 * Where a README's relative links and images point. The renderer resolves each relative
 * reference against `readmeDir` itself and hands over a clean repository-relative file path
 * (no `.`, `..`, empty segment or leading slash); a null answer drops the link (its text stays)
 * or the image (its alt text stays).
 */
export interface ReadmeContext {
  /** Directory holding the README, relative to the repository root; '' at the root. */
  readonly readmeDir: string;
  linkUrl(repoFilePath: string): string | null;
  imageUrl(repoFilePath: string): string | null;
}

export interface ForgeReadmeLocation {
  forge: ForgeEndpoints;
  /** `owner/repo`, or `group/sub/project` on GitLab. */
  repoPath: string;
  /** The release tag the README was read at. */
  tag: string;
  /** The README's path in the repository, e.g. `README.md` or `docs/README.de.md`. */
  readmePath: string;
}

/** For READMEs that have no repository to resolve against: relative references are dropped. */
export const NO_REPOSITORY_CONTEXT: ReadmeContext = Object.freeze({
  readmeDir: '',
  linkUrl: () => null,
  imageUrl: () => null,
});

function directoryOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/**
 * A README stored in a forge repository: relative links and images both go to the forge's raw
 * file URLs at the release tag, so they show the files as released rather than a moving branch.
 * Throws ForgeUrlError when the location itself is not valid.
 */
export function forgeReadmeContext(location: ForgeReadmeLocation): ReadmeContext {
  const { forge, repoPath, tag, readmePath } = location;
  const repo = checkRepoPath(forge.type, repoPath);
  if (!repo.ok) throw new ForgeUrlError('INVALID_REPO_PATH', repo.message);
  const ref = checkTag(tag);
  if (!ref.ok) throw new ForgeUrlError('INVALID_REF', ref.message);
  const readme = checkRepoFilePath(readmePath);
  if (!readme.ok) throw new ForgeUrlError('INVALID_FILE_PATH', readme.message);
  const raw = (path: string): string | null => {
    try {
      return rawFileUrl(forge, repoPath, tag, path);
    } catch (error) {
      if (error instanceof ForgeUrlError) return null;
      throw error;
    }
  };
  return { readmeDir: directoryOf(readmePath), linkUrl: raw, imageUrl: raw };
}

/**
 * A README fetched from an absolute http(s) URL (the manifest's `readme` may be one): relative
 * references resolve the way a browser would resolve them against that URL, but never above
 * its origin.
 */
export function urlReadmeContext(readmeUrl: string | URL): ReadmeContext {
  let url: URL;
  try {
    url = new URL(readmeUrl);
  } catch {
    return NO_REPOSITORY_CONTEXT;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) return NO_REPOSITORY_CONTEXT;
  let directory: string;
  try {
    directory = directoryOf(
      url.pathname
        .split('/')
        .filter((s) => s !== '')
        .map(decodeURIComponent)
        .join('/'),
    );
  } catch {
    return NO_REPOSITORY_CONTEXT;
  }
  const resolve = (path: string): string => `${url.origin}/${path.split('/').map(encodeURIComponent).join('/')}`;
  return { readmeDir: directory, linkUrl: resolve, imageUrl: resolve };
}
