import type { ForgeAdapter } from './forge-adapter';
import { gitlabParameter, numberAt, objectAt, timeAt } from './forge-adapter';

/** GitLab's Maintainer access level; Owner is 50. */
const MAINTAINER = 40;

function accessLevel(permissions: Record<string, unknown> | null, key: string): number {
  const level = objectAt(permissions, key)?.access_level;
  return typeof level === 'number' ? level : 0;
}

/** GitLab.com and self-managed GitLab; projects may sit in nested groups. */
export const gitlabAdapter: ForgeAdapter = {
  type: 'gitlab',
  label: 'GitLab',
  repoShapeProblem: (segments) => {
    if (segments.length < 2) return 'a GitLab repository path is group/project (groups may nest)';
    if (segments.includes('-')) return 'the path points inside a repository page, not at the repository';
    return null;
  },
  rawFileUrl: (at) => `${at.webRoot}/${at.repoPath}/-/raw/${at.tag}/${at.filePath}`,
  blobUrl: (at) => `${at.webRoot}/${at.repoPath}/-/blob/${at.tag}/${at.filePath}`,
  repositoryApiUrl: (apiRoot, rawRepoPath) => `${apiRoot}/projects/${gitlabParameter(rawRepoPath)}`,
  fileContentsApiRequest: (at) => ({
    url: `${at.apiRoot}/projects/${gitlabParameter(at.rawRepoPath)}/repository/files/${gitlabParameter(at.rawFilePath)}/raw?ref=${encodeURIComponent(at.rawTag)}`,
    headers: {},
  }),
  oauthEndpoints: (forge) => ({
    authorizationURL: `${forge.webUrl}/oauth/authorize`,
    tokenURL: `${forge.webUrl}/oauth/token`,
    userURL: `${forge.apiUrl}/user`,
    // The narrowest grant: the user, and read-only API access for a project's access level.
    // Hook installation, a later feature, needs `api` (full read/write) and will ask for it then.
    scope: ['read_user', 'read_api'],
    passportStrategy: 'oauth2',
  }),
  authorization: (accessToken) => `Bearer ${accessToken}`,
  // A project record read with the user's token carries the user's own access levels.
  canAdminister: (document) => {
    const permissions = objectAt(document, 'permissions');
    return Math.max(accessLevel(permissions, 'project_access'), accessLevel(permissions, 'group_access')) >= MAINTAINER;
  },
  // GitLab projects have no watchers count or homepage.
  providerStats: (document) => ({
    stars: numberAt(document, 'star_count'),
    forks: numberAt(document, 'forks_count'),
    watchers: null,
    lastPushAt: timeAt(document, 'last_activity_at'),
    homepage: null,
  }),
};
