import type { ForgeAdapter } from './forge-adapter';
import { numberAt, objectAt, textAt, timeAt } from './forge-adapter';

/** GitHub and GitHub Enterprise Server. */
export const githubAdapter: ForgeAdapter = {
  type: 'github',
  label: 'GitHub',
  repoShapeProblem: (segments) => (segments.length === 2 ? null : 'a GitHub repository path is owner/repo'),
  rawFileUrl: (at) => `${at.webRoot}/${at.repoPath}/raw/${at.tag}/${at.filePath}`,
  blobUrl: (at) => `${at.webRoot}/${at.repoPath}/blob/${at.tag}/${at.filePath}`,
  repositoryApiUrl: (apiRoot, rawRepoPath) => `${apiRoot}/repos/${rawRepoPath.split('/').map(encodeURIComponent).join('/')}`,
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
    // signed-in user's `permissions`. Hook installation, a later feature, adds admin:repo_hook.
    scope: ['read:user'],
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
};
