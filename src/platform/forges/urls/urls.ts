import type { ForgeApiRequest, ForgeInstanceConfig } from '../../../lib/forge/types';
import { forgeAdapter } from '../adapters';
import type { CheckedLocation } from '../forge-adapter';
import { ForgeUrlError } from './errors';
import { checkRepoFilePath, checkRepoPath, checkTag, encodeSegments } from './repo-path';

/** The parts of a forge instance the URL builders read. */
export type ForgeEndpoints = Pick<ForgeInstanceConfig, 'type' | 'webUrl' | 'apiUrl'>;
export type { ForgeApiRequest } from '../../../lib/forge/types';

function base(url: string): string {
  return url.replace(/\/+$/, '');
}

function checkedRepo(forge: ForgeEndpoints, repoPath: string): string {
  const repo = checkRepoPath(forge.type, repoPath);
  if (!repo.ok) throw new ForgeUrlError('INVALID_REPO_PATH', repo.message);
  return repoPath;
}

function checked(forge: ForgeEndpoints, repoPath: string, tag: string, filePath: string): CheckedLocation {
  checkedRepo(forge, repoPath);
  const ref = checkTag(tag);
  if (!ref.ok) throw new ForgeUrlError('INVALID_REF', ref.message);
  const file = checkRepoFilePath(filePath);
  if (!file.ok) throw new ForgeUrlError('INVALID_FILE_PATH', file.message);
  return {
    webRoot: base(forge.webUrl),
    apiRoot: base(forge.apiUrl),
    rawRepoPath: repoPath,
    repoPath: encodeSegments(repoPath),
    rawTag: tag,
    tag: encodeSegments(tag),
    rawFilePath: filePath,
    filePath: encodeSegments(filePath),
  };
}

/** URL of a file's bytes in a repository at a tag, as the forge's web UI serves it. */
export function rawFileUrl(forge: ForgeEndpoints, repoPath: string, tag: string, filePath: string): string {
  return forgeAdapter(forge.type).rawFileUrl(checked(forge, repoPath, tag, filePath));
}

/** URL of the forge's page showing a file at a tag: the link for humans. */
export function blobUrl(forge: ForgeEndpoints, repoPath: string, tag: string, filePath: string): string {
  return forgeAdapter(forge.type).blobUrl(checked(forge, repoPath, tag, filePath));
}

/** API URL of the repository record (stars, default branch, the caller's permissions, ...). */
export function repositoryApiUrl(forge: ForgeEndpoints, repoPath: string): string {
  return forgeAdapter(forge.type).repositoryApiUrl(base(forge.apiUrl), checkedRepo(forge, repoPath));
}

/** API request for a file's raw bytes at a tag. */
export function fileContentsApiRequest(forge: ForgeEndpoints, repoPath: string, tag: string, filePath: string): ForgeApiRequest {
  return forgeAdapter(forge.type).fileContentsApiRequest(checked(forge, repoPath, tag, filePath));
}
