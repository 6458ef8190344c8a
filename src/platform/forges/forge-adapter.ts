import type { ForgeApiRequest, ForgeInstanceConfig, ForgeType } from '../../lib/forge/types';
import type { ForgeRelease, HookInstallRequest, WebhookEnvelope, WebhookEvent, WebhookHeaders } from './webhook.types';

/** A repository's numbers as the spec's provider stats name them; null where the forge has none. */
export interface ProviderStats {
  stars: number | null;
  forks: number | null;
  watchers: number | null;
  /** Epoch ms. */
  lastPushAt: number | null;
  homepage: string | null;
}

export const NO_PROVIDER_STATS: ProviderStats = Object.freeze({
  stars: null,
  forks: null,
  watchers: null,
  lastPushAt: null,
  homepage: null,
});

export function numberAt(document: unknown, key: string): number | null {
  const value = typeof document === 'object' && document !== null ? (document as Record<string, unknown>)[key] : undefined;
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function textAt(document: unknown, key: string): string | null {
  const value = typeof document === 'object' && document !== null ? (document as Record<string, unknown>)[key] : undefined;
  return typeof value === 'string' && value !== '' ? value : null;
}

export function timeAt(document: unknown, key: string): number | null {
  const text = textAt(document, key);
  const ms = text === null ? NaN : Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * Who a CI job is, read from the verified claims of its OIDC ID token (trusted publishing).
 * `workflow` is the workflow file or CI config path, relative to the repository when it lives
 * there, else prefixed with where it lives; `ref` is a full git ref (`refs/tags/v1.0.0`).
 */
export interface CiIdentity {
  repositoryId: string;
  repository: string;
  workflow: string | null;
  ref: string | null;
  environment: string | null;
}

/** A claim as a non-empty string; numeric ids become their decimal text. */
export function claimText(claims: Readonly<Record<string, unknown>>, key: string): string | null {
  const value = claims[key];
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return typeof value === 'string' && value !== '' ? value : null;
}

/** `where@ref` → `where`, with the repository's own prefix (`<repository><separator>`) removed. */
export function workflowPath(reference: string | null, ownPrefix: string): string | null {
  if (!reference) return null;
  const at = reference.lastIndexOf('@');
  const path = at > 0 ? reference.slice(0, at) : reference;
  return path.toLowerCase().startsWith(ownPrefix.toLowerCase()) ? path.slice(ownPrefix.length) : path;
}

/** Where a forge sends a user to sign in, and where the registry reads who signed in. */
export interface OAuthEndpoints {
  authorizationURL: string;
  tokenURL: string;
  userURL: string;
  /** The narrowest scopes that read the user and the user's rights on a repository. */
  scope: string[];
  /** Added to `scope` when the user lets the registry install release webhooks (`/auth/<name>/login?access=hooks`). */
  hookScope: string[];
  /** `github2` uses passport-github2 (GitHub's profile and email quirks); the rest plain OAuth 2. */
  passportStrategy: 'github2' | 'oauth2';
}

/**
 * A repository location whose parts were already checked (`urls/repo-path.ts`) and
 * percent-encoded segment by segment; `rawRepoPath` is the unencoded `owner/repo`.
 */
export interface CheckedLocation {
  webRoot: string;
  apiRoot: string;
  rawRepoPath: string;
  repoPath: string;
  tag: string;
  rawTag: string;
  filePath: string;
  rawFilePath: string;
}

/**
 * Everything that differs between forge families, behind one interface: URL shapes, OAuth
 * endpoints, repository permissions, webhook signatures and payloads, releases and hooks. Nothing outside
 * an adapter switches on a forge type. Framework-free, so the CLI can use it too.
 */
export interface ForgeAdapter {
  readonly type: ForgeType;
  /** The family's name for people: "GitHub", "GitLab", "Gitea", "Forgejo". */
  readonly label: string;
  /** Why these path segments are not a repository on this forge (besides the shared name rules), or null. */
  repoShapeProblem(segments: readonly string[]): string | null;
  /** A file's bytes at a tag, as the web UI serves them. */
  rawFileUrl(at: CheckedLocation): string;
  /** The page showing a file at a tag: the link for humans. */
  blobUrl(at: CheckedLocation): string;
  /** The repository record (stars, permissions, ...). */
  repositoryApiUrl(apiRoot: string, rawRepoPath: string): string;
  /** A file's raw bytes at a tag through the API. */
  fileContentsApiRequest(at: CheckedLocation): ForgeApiRequest;
  oauthEndpoints(forge: ForgeInstanceConfig): OAuthEndpoints;
  /** The API root an instance at `webUrl` usually has (an admin adding an instance may leave it out). */
  defaultApiUrl(webUrl: string): string;
  /** The Authorization header value for a user's OAuth access token. */
  authorization(accessToken: string): string;
  /** Whether the repository record (read with the user's token) says the user administers it. */
  canAdminister(repositoryDocument: unknown): boolean;
  /** Stars, forks, watchers, last push and homepage from the repository record. */
  providerStats(repositoryDocument: unknown): ProviderStats;
  /** The immutable repository id in the repository record (it survives renames; a re-created repository gets a new one). */
  repositoryId(repositoryDocument: unknown): string | null;
  /** The repository's current path (`owner/repo`, `group/sub/project`) in the repository record; a renamed one answers its new path. */
  repositoryPath(repositoryDocument: unknown): string | null;
  /** The CI job's identity in a verified OIDC ID token's claims; null when they lack the repository. */
  ciIdentity(claims: Readonly<Record<string, unknown>>): CiIdentity | null;

  /** This forge's event name and delivery id when the headers are its webhook's, else null. */
  webhookEnvelope(headers: WebhookHeaders): WebhookEnvelope | null;
  /** Whether the delivery carries this secret in the forge's signature (or token) header, over the raw body. */
  verifyWebhook(headers: WebhookHeaders, rawBody: Buffer, secret: string): boolean;
  /** The repository's web URL in a delivery payload. */
  webhookRepositoryUrl(payload: unknown): string | null;
  /** A delivery's event in the registry's common shape. */
  parseWebhook(event: string, payload: unknown): WebhookEvent;
  /** The API URL of one release, by tag. */
  releaseByTagApiUrl(apiRoot: string, rawRepoPath: string, tag: string): string;
  /** The API URL of the repository's most recent releases, newest first. */
  recentReleasesApiUrl(apiRoot: string, rawRepoPath: string, limit: number): string;
  /** A release document from the API (one item of the list, or the release by tag). */
  parseRelease(document: unknown): ForgeRelease | null;
  /** Installing a hook for release events only, posting JSON to `hookUrl`, signed with `secret`. */
  hookInstallRequest(apiRoot: string, rawRepoPath: string, hookUrl: string, secret: string): HookInstallRequest;
}

/** GitLab takes a project or file path as one URL-encoded parameter, `.` included (as its docs do). */
export function gitlabParameter(value: string): string {
  return encodeURIComponent(value).replace(/\./g, '%2E');
}

export function objectAt(value: unknown, key: string): Record<string, unknown> | null {
  if (typeof value !== 'object' || value === null) return null;
  const inner = (value as Record<string, unknown>)[key];
  return typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>) : null;
}
