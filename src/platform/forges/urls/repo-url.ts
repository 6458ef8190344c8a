import type { ForgeInstanceConfig } from '../../../lib/forge/types';
import { matchInstance } from './forge-for-url';
import { repoSegmentsProblem } from './repo-path';
import { splitRepositoryUrl } from './url-parts';

export type RepoUrlResult = { ok: true; url: URL; identity: string } | { ok: false; message: string };

export interface ParseRepoUrlOptions {
  /**
   * Configured instances. A URL on one of them must also fit its forge type (exactly owner/repo
   * on GitHub and Gitea), so `https://github.com/o/r/tree/main` is refused rather than claimed as
   * a repository of its own.
   */
  forges?: readonly ForgeInstanceConfig[];
}

/**
 * Parses a plugin's `repoUrl`
 * (docs/decisions.md#one-ingest-for-push-and-webhook-with-a-guarded-fetch). `url` is the cleaned
 * URL (no credentials, query, fragment, trailing slash or `.git`; path case kept, for links and API
 * calls). `identity` is the uniqueness key: `host/path` with scheme, `www.`, default port, `.git`,
 * trailing slash, query and fragment removed, all lowercased. Lowercasing the path too is
 * deliberate: GitHub and Gitea treat owner and repository names case-insensitively and GitLab
 * redirects between spellings, and a false "already claimed" is safer than two slugs for one
 * repository.
 */
export function parseRepoUrl(input: string, options: ParseRepoUrlOptions = {}): RepoUrlResult {
  const split = splitRepositoryUrl(input);
  if (!split.ok) return split;
  if (options.forges) {
    const match = matchInstance(split, options.forges);
    const problem = match && repoSegmentsProblem(match.forge.type, match.rest);
    if (match && problem) {
      return { ok: false, message: `repository URL does not name a repository on ${match.forge.name}: ${problem}` };
    }
  }
  const identity = `${split.hostKey}/${split.segments.join('/')}`.toLowerCase();
  return { ok: true, url: split.url, identity };
}
