import type { ForgeAdapter } from './forge-adapter';
import { numberAt, objectAt, textAt, timeAt } from './forge-adapter';
import { githubStyleCiIdentity, githubStyleEvent, githubStyleRelease, repositoryIdOf } from './github';
import { text } from './payload';
import { header, hmacMatches } from './webhook-signature';

const repoApi = (apiRoot: string, rawRepoPath: string) => `${apiRoot}/repos/${rawRepoPath.split('/').map(encodeURIComponent).join('/')}`;

/** Gitea and Forgejo differ only in the names of their webhook headers (X-Gitea-* / X-Forgejo-*). */
function webhookParts(prefix: 'gitea' | 'forgejo') {
  return {
    webhookEnvelope: (headers) => {
      const event = header(headers, `x-${prefix}-event`);
      return event ? { event, deliveryId: header(headers, `x-${prefix}-delivery`) } : null;
    },
    verifyWebhook: (headers, rawBody, secret) => hmacMatches(secret, rawBody, header(headers, `x-${prefix}-signature`)),
  } satisfies Pick<ForgeAdapter, 'webhookEnvelope' | 'verifyWebhook'>;
}

const giteaFamily = {
  defaultApiUrl: (webUrl: string) => `${webUrl}/api/v1`,
  repoShapeProblem: (segments: readonly string[]) => (segments.length === 2 ? null : 'a Gitea or Forgejo repository path is owner/repo'),
  rawFileUrl: (at) => `${at.webRoot}/${at.repoPath}/raw/tag/${at.tag}/${at.filePath}`,
  blobUrl: (at) => `${at.webRoot}/${at.repoPath}/src/tag/${at.tag}/${at.filePath}`,
  repositoryApiUrl: repoApi,
  fileContentsApiRequest: (at) => ({
    url: `${at.apiRoot}/repos/${at.repoPath}/raw/${at.filePath}?ref=${encodeURIComponent(at.rawTag)}`,
    headers: {},
  }),
  oauthEndpoints: (forge) => ({
    authorizationURL: `${forge.webUrl}/login/oauth/authorize`,
    tokenURL: `${forge.webUrl}/login/oauth/access_token`,
    userURL: `${forge.apiUrl}/user`,
    // The narrowest grant: the user, and repositories with the user's permissions (read-only).
    scope: ['read:user', 'read:repository'],
    hookScope: ['write:repository'],
    passportStrategy: 'oauth2',
  }),
  authorization: (accessToken) => `Bearer ${accessToken}`,
  canAdminister: (document) => objectAt(document, 'permissions')?.admin === true,
  providerStats: (document) => ({
    stars: numberAt(document, 'stars_count'),
    forks: numberAt(document, 'forks_count'),
    watchers: numberAt(document, 'watchers_count'),
    lastPushAt: timeAt(document, 'updated_at'),
    homepage: textAt(document, 'website'),
  }),
  repositoryId: repositoryIdOf,
  repositoryPath: (document) => textAt(document, 'full_name'),
  // Gitea and Forgejo Actions issue ID tokens with GitHub's claim names.
  ciIdentity: githubStyleCiIdentity,
  webhookRepositoryUrl: (payload) => text(payload, 'repository', 'html_url'),
  parseWebhook: (event, payload) => githubStyleEvent(event, payload, ['published', 'updated']),
  releaseByTagApiUrl: (apiRoot, rawRepoPath, tag) => `${repoApi(apiRoot, rawRepoPath)}/releases/tags/${encodeURIComponent(tag)}`,
  recentReleasesApiUrl: (apiRoot, rawRepoPath, limit) => `${repoApi(apiRoot, rawRepoPath)}/releases?limit=${limit}`,
  parseRelease: githubStyleRelease,
  hookInstallRequest: (apiRoot, rawRepoPath, hookUrl, secret) => ({
    url: `${repoApi(apiRoot, rawRepoPath)}/hooks`,
    body: { type: 'gitea', active: true, events: ['release'], config: { url: hookUrl, content_type: 'json', secret } },
  }),
} satisfies Omit<ForgeAdapter, 'type' | 'label' | 'webhookEnvelope' | 'verifyWebhook'>;

/** Gitea (Codeberg runs Forgejo, which answers the same API). */
export const giteaAdapter: ForgeAdapter = { type: 'gitea', label: 'Gitea', ...giteaFamily, ...webhookParts('gitea') };

/** Forgejo: Gitea's URLs and API; its webhooks name their headers X-Forgejo-*. */
export const forgejoAdapter: ForgeAdapter = { type: 'forgejo', label: 'Forgejo', ...giteaFamily, ...webhookParts('forgejo') };
