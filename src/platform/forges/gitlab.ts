import type { CiIdentity, ForgeAdapter } from './forge-adapter';
import { claimText, gitlabParameter, numberAt, objectAt, textAt, timeAt, workflowPath } from './forge-adapter';
import { repositoryIdOf } from './github';
import { assetList, field, text } from './payload';
import { header, tokenMatches } from './webhook-signature';

const projectApi = (apiRoot: string, rawRepoPath: string) => `${apiRoot}/projects/${gitlabParameter(rawRepoPath)}`;
const TAG_PREFIX = 'refs/tags/';
const DELETED = /^0+$/;

/** GitLab's Maintainer access level; Owner is 50. */
const MAINTAINER = 40;

function accessLevel(permissions: Record<string, unknown> | null, key: string): number {
  const level = objectAt(permissions, key)?.access_level;
  return typeof level === 'number' ? level : 0;
}

/**
 * GitLab CI's ID token claims: `project_id`, `project_path`, `ci_config_ref_uri`
 * (`host/group/project//.gitlab-ci.yml@refs/heads/main`), `ref` with `ref_type` (or `ref_path`)
 * and `environment`.
 */
function gitlabCiIdentity(claims: Readonly<Record<string, unknown>>): CiIdentity | null {
  const repositoryId = claimText(claims, 'project_id');
  const repository = claimText(claims, 'project_path');
  if (!repositoryId || !repository) return null;
  const configUri = claimText(claims, 'ci_config_ref_uri');
  // The host part is the instance's; the config of this very project is named by its path alone.
  const ownPrefix = configUri ? `${configUri.slice(0, configUri.indexOf('/') + 1)}${repository}//` : '';
  const ref = claimText(claims, 'ref');
  const refType = claimText(claims, 'ref_type');
  const fullRef =
    claimText(claims, 'ref_path') ??
    (ref && refType === 'tag' ? `refs/tags/${ref}` : ref && refType === 'branch' ? `refs/heads/${ref}` : null);
  return {
    repositoryId,
    repository,
    workflow: workflowPath(configUri, ownPrefix),
    ref: fullRef,
    environment: claimText(claims, 'environment'),
  };
}

/** GitLab.com and self-managed GitLab; projects may sit in nested groups. */
export const gitlabAdapter: ForgeAdapter = {
  type: 'gitlab',
  label: 'GitLab',
  defaultApiUrl: (webUrl) => `${webUrl}/api/v4`,
  repoShapeProblem: (segments) => {
    if (segments.length < 2) return 'a GitLab repository path is group/project (groups may nest)';
    if (segments.includes('-')) return 'the path points inside a repository page, not at the repository';
    return null;
  },
  rawFileUrl: (at) => `${at.webRoot}/${at.repoPath}/-/raw/${at.tag}/${at.filePath}`,
  blobUrl: (at) => `${at.webRoot}/${at.repoPath}/-/blob/${at.tag}/${at.filePath}`,
  repositoryApiUrl: projectApi,
  fileContentsApiRequest: (at) => ({
    url: `${at.apiRoot}/projects/${gitlabParameter(at.rawRepoPath)}/repository/files/${gitlabParameter(at.rawFilePath)}/raw?ref=${encodeURIComponent(at.rawTag)}`,
    headers: {},
  }),
  oauthEndpoints: (forge) => ({
    authorizationURL: `${forge.webUrl}/oauth/authorize`,
    tokenURL: `${forge.webUrl}/oauth/token`,
    userURL: `${forge.apiUrl}/user`,
    // The narrowest grant: the user, and read-only API access for a project's access level.
    scope: ['read_user', 'read_api'],
    // GitLab has no narrower scope that can create a project hook.
    hookScope: ['api'],
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
  repositoryId: repositoryIdOf,
  repositoryPath: (document) => textAt(document, 'path_with_namespace'),
  ciIdentity: gitlabCiIdentity,
  webhookEnvelope: (headers) => {
    const event = header(headers, 'x-gitlab-event');
    return event ? { event, deliveryId: header(headers, 'x-gitlab-event-uuid') ?? header(headers, 'idempotency-key') } : null;
  },
  // GitLab sends the secret itself as a token, not an HMAC.
  verifyWebhook: (headers, _rawBody, secret) => tokenMatches(secret, header(headers, 'x-gitlab-token')),
  webhookRepositoryUrl: (payload) => text(payload, 'project', 'web_url'),
  parseWebhook: (event, payload) => {
    if (event === 'Release Hook') {
      const action = text(payload, 'action') ?? '';
      if (action !== 'create' && action !== 'update') return { kind: 'ignored', why: `release action "${action}" publishes nothing` };
      const tag = text(payload, 'tag');
      if (!tag) return { kind: 'ignored', why: 'the release names no tag' };
      return { kind: 'release', tag, assets: assetList(field(payload, 'assets', 'links'), 'name', 'url') };
    }
    if (event === 'Tag Push Hook') {
      const ref = text(payload, 'ref') ?? '';
      if (!ref.startsWith(TAG_PREFIX) || DELETED.test(text(payload, 'after') ?? '0')) return { kind: 'ignored', why: 'a tag was deleted' };
      return { kind: 'release', tag: ref.slice(TAG_PREFIX.length), assets: null };
    }
    return { kind: 'ignored', why: `the ${event} event is not a release` };
  },
  releaseByTagApiUrl: (apiRoot, rawRepoPath, tag) => `${projectApi(apiRoot, rawRepoPath)}/releases/${encodeURIComponent(tag)}`,
  recentReleasesApiUrl: (apiRoot, rawRepoPath, limit) => `${projectApi(apiRoot, rawRepoPath)}/releases?per_page=${limit}`,
  parseRelease: (document) => {
    const tag = text(document, 'tag_name');
    return tag ? { tag, draft: false, assets: assetList(field(document, 'assets', 'links'), 'name', 'url') } : null;
  },
  hookInstallRequest: (apiRoot, rawRepoPath, hookUrl, secret) => ({
    url: `${projectApi(apiRoot, rawRepoPath)}/hooks`,
    body: { url: hookUrl, token: secret, releases_events: true, push_events: false, tag_push_events: false, enable_ssl_verification: true },
  }),
};
