// Below config, which parses FORGES with these; the URL code over them is src/platform/forges/urls/.

/**
 * Forge families the registry speaks to. Forgejo is Gitea-compatible (same URLs and API) with its
 * own webhook header names, so it is a type of its own.
 */
export const FORGE_TYPES = ['github', 'gitlab', 'gitea', 'forgejo'] as const;
export type ForgeType = (typeof FORGE_TYPES)[number];

/**
 * One configured forge instance (the `FORGES` setting,
 * docs/decisions.md#forge-sign-in-sessions-and-the-install-wizard).
 */
export interface ForgeInstanceConfig {
  readonly name: string;
  readonly type: ForgeType;
  readonly webUrl: string;
  readonly apiUrl: string;
  readonly clientId?: string;
  readonly clientSecret?: string;
  readonly token?: string;
  /**
   * The issuer of this instance's CI OIDC ID tokens (trusted publishing); absent when its CI
   * issues none the registry trusts.
   */
  readonly oidcIssuer?: string;
}

/** An API call: the URL, and the headers that select the response format (auth is the caller's). */
export interface ForgeApiRequest {
  url: string;
  headers: Readonly<Record<string, string>>;
}
