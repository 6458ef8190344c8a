import type { ForgeInstanceConfig } from '../../../lib/forge/types';
import { repoSegmentsProblem } from './repo-path';
import { hostKeyOf, splitRepositoryUrl } from './url-parts';
import type { RepoUrlParts } from './url-parts';

/** A configured forge instance and where a repository sits on it. */
export interface ForgeLocation {
  forge: ForgeInstanceConfig;
  /** What follows the instance's webUrl: `owner/repo`, or `group/sub/project` on GitLab. Case as written. */
  repoPath: string;
}

interface InstanceMatch {
  forge: ForgeInstanceConfig;
  rest: string[];
}

function instancePrefix(forge: ForgeInstanceConfig): { hostKey: string; segments: string[] } | null {
  try {
    const web = new URL(forge.webUrl);
    return { hostKey: hostKeyOf(web), segments: web.pathname.split('/').filter((s) => s !== '') };
  } catch {
    return null;
  }
}

/**
 * The instance whose webUrl is the longest prefix of the URL, compared by whole path segments so
 * `https://host/gitlab` never claims `https://host/gitlabx/...`. Scheme and `www.` are ignored and
 * segments compared case-insensitively, matching how repository identities are compared.
 */
export function matchInstance(parts: RepoUrlParts, forges: readonly ForgeInstanceConfig[]): InstanceMatch | null {
  let best: InstanceMatch | null = null;
  let bestLength = -1;
  for (const forge of forges) {
    const prefix = instancePrefix(forge);
    if (!prefix || prefix.hostKey !== parts.hostKey) continue;
    if (prefix.segments.length >= parts.segments.length || prefix.segments.length <= bestLength) continue;
    const matches = prefix.segments.every((segment, i) => segment.toLowerCase() === parts.segments[i].toLowerCase());
    if (!matches) continue;
    best = { forge, rest: parts.segments.slice(prefix.segments.length) };
    bestLength = prefix.segments.length;
  }
  return best;
}

/**
 * The configured forge instance hosting a repository URL and the repository's path on it; null
 * for hosts no instance covers, and for URLs that are not a repository of that forge type.
 */
export function forgeForUrl(url: URL | string, forges: readonly ForgeInstanceConfig[]): ForgeLocation | null {
  const split = splitRepositoryUrl(typeof url === 'string' ? url : url.href);
  if (!split.ok) return null;
  const match = matchInstance(split, forges);
  if (!match || repoSegmentsProblem(match.forge.type, match.rest)) return null;
  return { forge: match.forge, repoPath: match.rest.join('/') };
}
