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

/**
 * The shared comment about the job split: what it keeps apart and what it does not protect.
 * `withheld` names what the build job lacks on this forge.
 */
export function splitComment(withheld: string): string[] {
  return [
    '# Three jobs, so that the publish credential never shares a job with code from your repository',
    '# or its dependencies:',
    '# - `build` runs npm, so your build and every install script, and hands the plugin on as an',
    `#   artifact. It holds ${withheld}.`,
    '# - `registry-cli` fetches the CLI and checks it against the pin (below).',
    '# - `publish` holds the credential and runs no checkout and no npm: it takes both artifacts and',
    "#   runs the forge's own tools and the checked CLI only.",
    '# A compromised build can still hand on a bad plugin, which the registry signs as given; what it',
    '# cannot do is take the credential or publish on its own. Keep checkouts, npm, caches and',
    '# repository scripts out of the publish job, or the split is gone.',
  ];
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
    '# again right before it runs it: it trusts no file an earlier job hands on.',
  ];
}

/**
 * Shell that stops unless each path is a regular file and no symbolic link. The build shapes its
 * artifact: a link to /proc/self/environ, uploaded or read in the publish job, would hand over the
 * environment the credential is in.
 */
export function plainFiles(paths: string): string {
  return `for file in ${paths}; do if [ -L "$file" ] || [ ! -f "$file" ]; then echo "not a plain file - $file" >&2; exit 1; fi; done`;
}
