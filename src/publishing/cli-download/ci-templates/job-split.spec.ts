import { forgejoActions } from './forgejo-actions';
import { githubActions } from './github-actions';
import { gitlabCi } from './gitlab-ci';
import type { CiAuth, CiForge, TemplateValues } from './template-values';
import { credentialsOf, repositoryCodeIn, workflowJobs, type CiJob } from './testing/workflow-jobs';

const RENDER: Record<CiForge, (values: TemplateValues) => string> = { github: githubActions, gitlab: gitlabCi, forgejo: forgejoActions };
const PIN = 'a'.repeat(64);
const CASES = (Object.keys(RENDER) as CiForge[]).flatMap((forge) =>
  (['trusted', 'token'] as CiAuth[]).map((auth) => [forge, auth] as const),
);

function rendered(forge: CiForge, auth: CiAuth) {
  return workflowJobs(
    forge,
    RENDER[forge]({ baseUrl: 'https://plugins.example.test', oidcAudience: 'registry-audience', cliSha256: PIN, auth }),
  );
}

function job(jobs: CiJob[], name: string): CiJob {
  const found = jobs.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no job ${name} in ${jobs.map((candidate) => candidate.name).join(', ')}`);
  return found;
}

/** Where in a job's commands (joined in order) a text first appears; -1 if nowhere. */
function at(target: CiJob, text: string): number {
  return target.commands.join('\n').indexOf(text);
}

describe.each(CASES)('the %s template (%s) keeps the publish credential away from the build', (forge, auth) => {
  const { document, jobs } = rendered(forge, auth);

  it('gives a credential to the publish job alone, which runs no npm, no build and no checkout', () => {
    expect(jobs.map((candidate) => candidate.name).sort()).toEqual(['build', 'publish', 'registry-cli']);
    expect(jobs.filter((candidate) => credentialsOf(candidate).length > 0).map((candidate) => candidate.name)).toEqual(['publish']);
    const publish = job(jobs, 'publish');
    expect(repositoryCodeIn(forge, publish)).toEqual([]);
    expect([publish.body.needs].flat().sort()).toEqual(['build', 'registry-cli']);
    const credentials = credentialsOf(publish);
    const trusted = forge !== 'forgejo' && auth === 'trusted';
    expect(credentials.includes(forge === 'gitlab' ? 'id_tokens' : 'id-token')).toBe(trusted);
    if (forge === 'gitlab' && trusted) expect(publish.body.id_tokens).toEqual({ REGISTRY_ID_TOKEN: { aud: 'registry-audience' } });
    if (forge !== 'gitlab') expect(credentials.includes('secrets.')).toBe(!trusted);
  });

  it('builds in a job without credentials, from a checkout that keeps none, and hands the plugin on', () => {
    const build = job(jobs, 'build');
    expect(credentialsOf(build)).toEqual([]);
    expect(build.commands.some((command) => command.startsWith('npm ci && npm run build'))).toBe(true);
    if (forge === 'gitlab') {
      expect(build.body.artifacts).toMatchObject({ paths: ['my-plugin.tgz', '.plugin.yaml'] });
      return;
    }
    const checkout = build.actions.find((action) => action.uses.includes('actions/checkout'));
    expect(checkout?.with['persist-credentials']).toBe(false);
    const upload = build.actions.find((action) => action.uses.includes('actions/upload-artifact'));
    expect(upload?.with).toMatchObject({ name: 'plugin', 'include-hidden-files': true });
    if (forge === 'github') expect([document.permissions, build.body.permissions]).toEqual([{}, { contents: 'read' }]);
  });

  it('keeps the pin: a job without credentials fetches and checks the CLI, the publish job checks it again before running it', () => {
    expect(forge === 'gitlab' ? document.variables : document.env).toEqual({
      REGISTRY_URL: 'https://plugins.example.test',
      REGISTRY_CLI_SHA256: PIN,
    });
    const fetcher = job(jobs, 'registry-cli');
    expect(credentialsOf(fetcher)).toEqual([]);
    expect(repositoryCodeIn(forge, fetcher).filter((reason) => !reason.startsWith('GIT_STRATEGY'))).toEqual([]);
    expect(at(fetcher, 'curl --fail-with-body -sSL -o registry.js "$REGISTRY_URL/cli/registry.js"')).toBeGreaterThanOrEqual(0);
    expect(at(fetcher, 'echo "$REGISTRY_CLI_SHA256  registry.js" | sha256sum -c -')).toBeGreaterThan(0);
    const publish = job(jobs, 'publish');
    const cli = forge === 'gitlab' ? 'registry.js' : 'registry-cli/registry.js';
    expect(at(publish, '/cli/registry.js')).toBe(-1);
    const check = at(publish, `echo "$REGISTRY_CLI_SHA256  ${cli}" | sha256sum -c -`);
    expect(check).toBeGreaterThanOrEqual(0);
    expect(at(publish, `node ${cli} publish`)).toBeGreaterThan(check);
  });

  it("checks that the build's files are plain files before the publish job uploads or reads them", () => {
    const publish = job(jobs, 'publish');
    const plain = at(publish, 'if [ -L "$file" ] || [ ! -f "$file" ]');
    expect(plain).toBeGreaterThanOrEqual(0);
    const firstUse = Math.min(
      ...['upload', 'attachment=@', 'registry.js publish'].map((text) => at(publish, text)).filter((index) => index >= 0),
    );
    expect(plain).toBeLessThan(firstUse);
  });
});

describe('the job-split check', () => {
  it('notices a build, a checkout or a Git checkout in the job that holds the credential', () => {
    const github = workflowJobs(
      'github',
      'jobs:\n  publish:\n    permissions:\n      id-token: write\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm ci && npm run build\n',
    ).jobs[0];
    expect(credentialsOf(github)).toEqual(['id-token', 'id-token: write']);
    expect(repositoryCodeIn('github', github)).toEqual(['runs: npm ci && npm run build', 'uses: actions/checkout@v4']);
    const gitlab = workflowJobs(
      'gitlab',
      'variables:\n  A: b\npublish:\n  environment: registry\n  script:\n    - node registry.js publish\n',
    ).jobs[0];
    expect([gitlab.name, credentialsOf(gitlab), repositoryCodeIn('gitlab', gitlab)]).toEqual([
      'publish',
      ['environment'],
      ['GIT_STRATEGY: the default, a checkout'],
    ]);
  });
});
