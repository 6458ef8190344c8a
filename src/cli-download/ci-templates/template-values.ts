/** The CI systems the registry hands out publish workflows for, one per forge family it knows. */
export const CI_FORGES = ['github', 'gitlab', 'forgejo'] as const;
export type CiForge = (typeof CI_FORGES)[number];

/**
 * How the publish job authenticates: `trusted` (the CI's OIDC ID token, no stored secret) or
 * `token` (a publisher token in REGISTRY_TOKEN). Forgejo/Gitea templates are `token` only: OIDC
 * there depends on the instance and on its operator naming the issuer in FORGES.
 */
export type CiAuth = 'trusted' | 'token';

export interface TemplateValues {
  /** This registry's public address, BASE_URL. */
  baseUrl: string;
  /** The audience trusted publishing tokens are requested for (OIDC_AUDIENCE, default BASE_URL). */
  oidcAudience: string;
  /** SHA-256 (hex) of the bytes GET /cli/registry.js serves now: the pin. */
  cliSha256: string;
  auth: CiAuth;
}

export interface CiTemplate {
  forge: CiForge;
  /** What the forge calls its CI. */
  title: string;
  /** The file it is served as, under /cli/ci/. */
  file: string;
  /** Where it goes in the plugin's repository. */
  path: string;
  auth: CiAuth;
  content: string;
}

/**
 * A YAML double-quoted scalar. The values put in templates (an http(s) URL, an audience, a hex
 * digest) come from configuration; quoting keeps an odd character from changing the document.
 */
export function quoted(value: string): string {
  return JSON.stringify(value);
}

/** A value inside a `#` comment: a line break there would end the comment and start YAML. */
export function inComment(value: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
  return value.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, '?');
}

/** A single-quoted shell word on one line of a `run: |` block. */
export function shellQuoted(value: string): string {
  return `'${inComment(value).replace(/'/g, `'\\''`)}'`;
}

/** The shared comment about the pin: what it protects and what a registry upgrade means for it. */
export function pinComment(): string[] {
  return [
    '# REGISTRY_CLI_SHA256 pins the registry CLI: the SHA-256 of /cli/registry.js as this registry',
    '# served it when it rendered this file. A job that gets other bytes fails before running them,',
    '# even if the registry (or whoever answers for it) serves another CLI. When the registry is',
    '# upgraded the check fails on purpose: fetch this template again (or /cli/registry.js.sha256),',
    '# review the change and update the pin. The CLI is downloaded and checked in a job that holds',
    '# no secret and no OIDC permission, which hands the checked file on; the publish job checks it',
    '# again before it runs it.',
  ];
}
