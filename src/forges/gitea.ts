import type { ForgeAdapter } from './forge-adapter';
import { numberAt, objectAt, textAt, timeAt } from './forge-adapter';

const giteaFamily = {
  repoShapeProblem: (segments: readonly string[]) => (segments.length === 2 ? null : 'a Gitea or Forgejo repository path is owner/repo'),
  rawFileUrl: (at) => `${at.webRoot}/${at.repoPath}/raw/tag/${at.tag}/${at.filePath}`,
  blobUrl: (at) => `${at.webRoot}/${at.repoPath}/src/tag/${at.tag}/${at.filePath}`,
  repositoryApiUrl: (apiRoot, rawRepoPath) => `${apiRoot}/repos/${rawRepoPath.split('/').map(encodeURIComponent).join('/')}`,
  fileContentsApiRequest: (at) => ({ url: `${at.apiRoot}/repos/${at.repoPath}/raw/${at.filePath}?ref=${encodeURIComponent(at.rawTag)}`, headers: {} }),
  oauthEndpoints: (forge) => ({
    authorizationURL: `${forge.webUrl}/login/oauth/authorize`,
    tokenURL: `${forge.webUrl}/login/oauth/access_token`,
    userURL: `${forge.apiUrl}/user`,
    // The narrowest grant: the user, and repositories with the user's permissions (read-only).
    // Hook installation, a later feature, needs write:repository and will ask for it then.
    scope: ['read:user', 'read:repository'],
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
} satisfies Omit<ForgeAdapter, 'type' | 'label'>;

/** Gitea (Codeberg runs Forgejo, which answers the same API). */
export const giteaAdapter: ForgeAdapter = { type: 'gitea', label: 'Gitea', ...giteaFamily };

/** Forgejo: Gitea's URLs and API; its webhooks name their headers X-Forgejo-*. */
export const forgejoAdapter: ForgeAdapter = { type: 'forgejo', label: 'Forgejo', ...giteaFamily };
