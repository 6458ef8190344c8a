import type { ForgeInstanceConfig } from '../../config/config.types';
import { ForgeUrlError } from './errors';
import { checkRepoFilePath, checkRepoPath, checkTag, encodeSegments } from './repo-path';

/** The parts of a forge instance the URL builders read. */
export type ForgeEndpoints = Pick<ForgeInstanceConfig, 'type' | 'webUrl' | 'apiUrl'>;

/** An API call: the URL, and the headers that select the response format (auth is the caller's). */
export interface ForgeApiRequest {
  url: string;
  headers: Readonly<Record<string, string>>;
}

interface Checked {
  repoPath: string;
  tag: string;
  filePath: string;
}

function base(url: string): string {
  return url.replace(/\/+$/, '');
}

function checked(forge: ForgeEndpoints, repoPath: string, tag: string, filePath: string): Checked {
  const repo = checkRepoPath(forge.type, repoPath);
  if (!repo.ok) throw new ForgeUrlError('INVALID_REPO_PATH', repo.message);
  const ref = checkTag(tag);
  if (!ref.ok) throw new ForgeUrlError('INVALID_REF', ref.message);
  const file = checkRepoFilePath(filePath);
  if (!file.ok) throw new ForgeUrlError('INVALID_FILE_PATH', file.message);
  return { repoPath: encodeSegments(repoPath), tag: encodeSegments(tag), filePath: encodeSegments(filePath) };
}

function checkedRepo(forge: ForgeEndpoints, repoPath: string): string {
  const repo = checkRepoPath(forge.type, repoPath);
  if (!repo.ok) throw new ForgeUrlError('INVALID_REPO_PATH', repo.message);
  return repoPath;
}

// GitLab takes a project path or file path as one URL-encoded parameter; its docs encode `.` too
// (`lib%2Fclass%2Erb`) so a suffix like `.md` is never read as a response format.
function gitlabParameter(value: string): string {
  return encodeURIComponent(value).replace(/\./g, '%2E');
}

/** URL of a file's bytes in a repository at a tag, as the forge's web UI serves it. */
export function rawFileUrl(forge: ForgeEndpoints, repoPath: string, tag: string, filePath: string): string {
  const c = checked(forge, repoPath, tag, filePath);
  const root = `${base(forge.webUrl)}/${c.repoPath}`;
  switch (forge.type) {
    case 'github':
      return `${root}/raw/${c.tag}/${c.filePath}`;
    case 'gitlab':
      return `${root}/-/raw/${c.tag}/${c.filePath}`;
    case 'gitea':
      return `${root}/raw/tag/${c.tag}/${c.filePath}`;
  }
}

/** URL of the forge's page showing a file at a tag: the link for humans. */
export function blobUrl(forge: ForgeEndpoints, repoPath: string, tag: string, filePath: string): string {
  const c = checked(forge, repoPath, tag, filePath);
  const root = `${base(forge.webUrl)}/${c.repoPath}`;
  switch (forge.type) {
    case 'github':
      return `${root}/blob/${c.tag}/${c.filePath}`;
    case 'gitlab':
      return `${root}/-/blob/${c.tag}/${c.filePath}`;
    case 'gitea':
      return `${root}/src/tag/${c.tag}/${c.filePath}`;
  }
}

/** API URL of the repository record (stars, default branch, ...). */
export function repositoryApiUrl(forge: ForgeEndpoints, repoPath: string): string {
  const path = checkedRepo(forge, repoPath);
  switch (forge.type) {
    case 'github':
    case 'gitea':
      return `${base(forge.apiUrl)}/repos/${encodeSegments(path)}`;
    case 'gitlab':
      return `${base(forge.apiUrl)}/projects/${gitlabParameter(path)}`;
  }
}

/**
 * API request for a file's raw bytes at a tag. GitHub answers the contents endpoint with the raw
 * file only when asked for `application/vnd.github.raw+json`; GitLab and Gitea have raw endpoints.
 */
export function fileContentsApiRequest(
  forge: ForgeEndpoints,
  repoPath: string,
  tag: string,
  filePath: string,
): ForgeApiRequest {
  const c = checked(forge, repoPath, tag, filePath);
  const ref = encodeURIComponent(tag);
  switch (forge.type) {
    case 'github':
      return {
        url: `${base(forge.apiUrl)}/repos/${c.repoPath}/contents/${c.filePath}?ref=${ref}`,
        headers: { Accept: 'application/vnd.github.raw+json' },
      };
    case 'gitlab':
      return {
        url: `${base(forge.apiUrl)}/projects/${gitlabParameter(repoPath)}/repository/files/${gitlabParameter(filePath)}/raw?ref=${ref}`,
        headers: {},
      };
    case 'gitea':
      return { url: `${base(forge.apiUrl)}/repos/${c.repoPath}/raw/${c.filePath}?ref=${ref}`, headers: {} };
  }
}
