import type { CiIdentity, ForgeAdapter } from './forge-adapter';
import { claimText, numberAt, objectAt, textAt, timeAt, workflowPath } from './forge-adapter';
import { assetList, field, text } from './payload';
import { header, hmacMatches } from './webhook-signature';
import type { WebhookEvent } from './webhook.types';

const repoApi = (apiRoot: string, rawRepoPath: string) => `${apiRoot}/repos/${rawRepoPath.split('/').map(encodeURIComponent).join('/')}`;

/**
 * GitHub's `release` (published, released), `create` of a tag, and `ping`. Gitea and Forgejo send
 * GitHub's headers too, which is why they are detected first.
 */
export function githubStyleEvent(event: string, payload: unknown, releaseActions: readonly string[]): WebhookEvent {
  if (event === 'ping') return { kind: 'ping' };
  if (event === 'create') {
    const tag = text(payload, 'ref');
    if (text(payload, 'ref_type') !== 'tag' || !tag) return { kind: 'ignored', why: 'a branch was created' };
    return { kind: 'release', tag, assets: null };
  }
  if (event !== 'release') return { kind: 'ignored', why: `the ${event} event is not a release` };
  const action = text(payload, 'action') ?? '';
  if (!releaseActions.includes(action)) return { kind: 'ignored', why: `release action "${action}" publishes nothing` };
  if (field(payload, 'release', 'draft') === true) return { kind: 'ignored', why: 'a draft release' };
  const tag = text(payload, 'release', 'tag_name');
  if (!tag) return { kind: 'ignored', why: 'the release names no tag' };
  return { kind: 'release', tag, assets: assetList(field(payload, 'release', 'assets'), 'name', 'browser_download_url') };
}

/** A release document of GitHub's (and Gitea's) REST API. */
export function githubStyleRelease(document: unknown) {
  const tag = text(document, 'tag_name');
  return tag
    ? { tag, draft: field(document, 'draft') === true, assets: assetList(field(document, 'assets'), 'name', 'browser_download_url') }
    : null;
}

/**
 * GitHub Actions' ID token claims (Gitea and Forgejo Actions issue the same names):
 * `repository_id`, `repository`, `job_workflow_ref` (`owner/repo/.github/workflows/x.yml@ref`,
 * the reusable workflow's own when one runs), `ref` and `environment`.
 */
export function githubStyleCiIdentity(claims: Readonly<Record<string, unknown>>): CiIdentity | null {
  const repositoryId = claimText(claims, 'repository_id');
  const repository = claimText(claims, 'repository');
  if (!repositoryId || !repository) return null;
  return {
    repositoryId,
    repository,
    workflow: workflowPath(claimText(claims, 'job_workflow_ref'), `${repository}/`),
    ref: claimText(claims, 'ref'),
    environment: claimText(claims, 'environment'),
  };
}

/** The numeric `id` of a repository record (GitHub, GitLab and Gitea all name it so). */
export function repositoryIdOf(document: unknown): string | null {
  const id = numberAt(document, 'id');
  return id !== null && Number.isSafeInteger(id) ? String(id) : null;
}

/** GitHub and GitHub Enterprise Server. */
export const githubAdapter: ForgeAdapter = {
  type: 'github',
  label: 'GitHub',
  // github.com serves its API from its own host; GitHub Enterprise Server under /api/v3.
  defaultApiUrl: (webUrl) => (new URL(webUrl).host.toLowerCase() === 'github.com' ? 'https://api.github.com' : `${webUrl}/api/v3`),
  repoShapeProblem: (segments) => (segments.length === 2 ? null : 'a GitHub repository path is owner/repo'),
  rawFileUrl: (at) => `${at.webRoot}/${at.repoPath}/raw/${at.tag}/${at.filePath}`,
  blobUrl: (at) => `${at.webRoot}/${at.repoPath}/blob/${at.tag}/${at.filePath}`,
  repositoryApiUrl: repoApi,
  // The contents endpoint answers with the raw file only when asked for this media type.
  fileContentsApiRequest: (at) => ({
    url: `${at.apiRoot}/repos/${at.repoPath}/contents/${at.filePath}?ref=${encodeURIComponent(at.rawTag)}`,
    headers: { Accept: 'application/vnd.github.raw+json' },
  }),
  oauthEndpoints: (forge) => ({
    authorizationURL: `${forge.webUrl}/login/oauth/authorize`,
    tokenURL: `${forge.webUrl}/login/oauth/access_token`,
    userURL: `${forge.apiUrl}/user`,
    // The narrowest grant: the profile, and (with no scope at all) public repositories with the
    // signed-in user's `permissions`.
    scope: ['read:user'],
    hookScope: ['admin:repo_hook'],
    passportStrategy: 'github2',
  }),
  authorization: (accessToken) => `Bearer ${accessToken}`,
  // `maintain` is GitHub's "Maintainer" role: it manages the repository without owning it.
  canAdminister: (document) => {
    const permissions = objectAt(document, 'permissions');
    return permissions?.admin === true || permissions?.maintain === true;
  },
  // subscribers_count is GitHub's watchers; its watchers_count mirrors stars.
  providerStats: (document) => ({
    stars: numberAt(document, 'stargazers_count'),
    forks: numberAt(document, 'forks_count'),
    watchers: numberAt(document, 'subscribers_count'),
    lastPushAt: timeAt(document, 'pushed_at'),
    homepage: textAt(document, 'homepage'),
  }),
  repositoryId: repositoryIdOf,
  repositoryPath: (document) => textAt(document, 'full_name'),
  ciIdentity: githubStyleCiIdentity,
  webhookEnvelope: (headers) => {
    const event = header(headers, 'x-github-event');
    return event ? { event, deliveryId: header(headers, 'x-github-delivery') } : null;
  },
  verifyWebhook: (headers, rawBody, secret) => {
    const signature = header(headers, 'x-hub-signature-256');
    return signature !== null && signature.startsWith('sha256=') && hmacMatches(secret, rawBody, signature.slice('sha256='.length));
  },
  webhookRepositoryUrl: (payload) => text(payload, 'repository', 'html_url'),
  parseWebhook: (event, payload) => githubStyleEvent(event, payload, ['published', 'released']),
  releaseByTagApiUrl: (apiRoot, rawRepoPath, tag) => `${repoApi(apiRoot, rawRepoPath)}/releases/tags/${encodeURIComponent(tag)}`,
  recentReleasesApiUrl: (apiRoot, rawRepoPath, limit) => `${repoApi(apiRoot, rawRepoPath)}/releases?per_page=${limit}`,
  parseRelease: githubStyleRelease,
  hookInstallRequest: (apiRoot, rawRepoPath, hookUrl, secret) => ({
    url: `${repoApi(apiRoot, rawRepoPath)}/hooks`,
    body: { name: 'web', active: true, events: ['release'], config: { url: hookUrl, content_type: 'json', secret, insecure_ssl: '0' } },
  }),
};
