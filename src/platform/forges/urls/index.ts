/** Repository URLs and forge URL builders over the forge adapters: framework-free, used by server code only. */
export { ForgeUrlError } from './errors';
export type { ForgeUrlErrorCode } from './errors';
export { checkRepoFilePath, checkRepoPath, checkTag, MAX_FILE_PATH_LENGTH, MAX_TAG_LENGTH } from './repo-path';
export type { PathCheck } from './repo-path';
export { MAX_REPO_URL_LENGTH } from './url-parts';
export { forgeForUrl } from './forge-for-url';
export type { ForgeLocation } from './forge-for-url';
export { parseRepoUrl } from './repo-url';
export type { ParseRepoUrlOptions, RepoUrlResult } from './repo-url';
export { blobUrl, fileContentsApiRequest, rawFileUrl, repositoryApiUrl } from './urls';
export type { ForgeApiRequest, ForgeEndpoints } from './urls';
