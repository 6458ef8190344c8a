import { load } from 'js-yaml';
import type { CiForge } from '../template-values';

type Json = Record<string, unknown>;

/** One job of a rendered template, as the forge would read it. */
export interface CiJob {
  name: string;
  body: Json;
  /** Every shell command it runs: `run:` steps, or GitLab's before_script/script/after_script. */
  commands: string[];
  /** The actions it uses (GitHub, Forgejo): `uses:` and its `with:`. */
  actions: { uses: string; with: Json }[];
}

const GITLAB_KEYWORDS = new Set([
  'variables',
  'stages',
  'default',
  'include',
  'workflow',
  'image',
  'services',
  'cache',
  'before_script',
  'after_script',
]);

function asList(value: unknown): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}

/**
 * The jobs of a template, parsed by js-yaml (which refuses a duplicated key): each with what it
 * runs, so a test asserts on what the forge executes rather than on the file's text.
 */
export function workflowJobs(forge: CiForge, content: string): { document: Json; jobs: CiJob[] } {
  const document = load(content) as Json;
  if (forge === 'gitlab') {
    const jobs = Object.entries(document)
      .filter(([name, body]) => !GITLAB_KEYWORDS.has(name) && !name.startsWith('.') && typeof body === 'object' && body !== null)
      .map(([name, body]) => {
        const job = body as Json;
        return {
          name,
          body: job,
          commands: [...asList(job.before_script), ...asList(job.script), ...asList(job.after_script)],
          actions: [],
        };
      });
    return { document, jobs };
  }
  const jobs = Object.entries(document.jobs as Record<string, Json>).map(([name, body]) => {
    const steps = (body.steps ?? []) as Json[];
    return {
      name,
      body,
      commands: steps.filter((step) => typeof step.run === 'string').map((step) => step.run as string),
      actions: steps
        .filter((step) => typeof step.uses === 'string')
        .map((step) => ({ uses: step.uses as string, with: (step.with ?? {}) as Json })),
    };
  });
  return { document, jobs };
}

const CREDENTIAL_TEXT = /secrets\.|id-token|id_tokens|REGISTRY_TOKEN|REGISTRY_ID_TOKEN|RELEASE_TOKEN|github\.token|GITHUB_TOKEN/;

/**
 * What in a job reaches a credential: a secret or the forge's token named, an OIDC permission or
 * `id_tokens`, an environment (its secrets and environment-scoped variables), a write permission.
 */
export function credentialsOf(job: CiJob): string[] {
  const found: string[] = [];
  const text = JSON.stringify(job.body);
  const named = text.match(new RegExp(CREDENTIAL_TEXT.source, 'g'));
  if (named) found.push(...new Set(named));
  if (job.body.environment !== undefined) found.push('environment');
  if (job.body.secrets !== undefined) found.push('secrets');
  const permissions = job.body.permissions;
  if (typeof permissions === 'string' && permissions !== 'read-all') found.push(`permissions: ${permissions}`);
  if (typeof permissions === 'object' && permissions !== null) {
    for (const [scope, level] of Object.entries(permissions)) if (level === 'write') found.push(`${scope}: write`);
  }
  return found;
}

const PACKAGE_MANAGER = /\b(npm|npx|yarn|pnpm|bun)\b|\brun build\b/;

/**
 * What in a job would run code from the repository or its dependencies, or hand the job files an
 * earlier job could have planted: a package manager or build, a checkout (on GitLab, any Git
 * strategy but none), a cache.
 */
export function repositoryCodeIn(forge: CiForge, job: CiJob): string[] {
  const found = job.commands.filter((command) => PACKAGE_MANAGER.test(command)).map((command) => `runs: ${command}`);
  for (const action of job.actions) {
    if (/checkout|cache/.test(action.uses)) found.push(`uses: ${action.uses}`);
    if (action.with.cache !== undefined) found.push(`uses: ${action.uses} with a cache`);
  }
  if (forge === 'gitlab') {
    const variables = (job.body.variables ?? {}) as Json;
    if (variables.GIT_STRATEGY !== 'none') found.push(`GIT_STRATEGY: ${String(variables.GIT_STRATEGY ?? 'the default, a checkout')}`);
    if (job.body.cache !== undefined) found.push('cache');
  }
  return found;
}
