import { forgejoActions } from './forgejo-actions';
import { githubActions } from './github-actions';
import { gitlabCi } from './gitlab-ci';
import type { TemplateValues } from './template-values';

/** The pin in the repository's examples: not a digest, so a job run from one unedited fails its check. */
export const EXAMPLE_PIN = 'paste-the-sha256-of-your-registry-cli-here';

const EXAMPLE: Omit<TemplateValues, 'auth'> = {
  baseUrl: 'https://plugins.example.org',
  oidcAudience: 'https://plugins.example.org',
  cliSha256: EXAMPLE_PIN,
};

const NOTE = [
  '# An example, rendered for https://plugins.example.org. Your registry serves this file filled in',
  '# with its own address and the SHA-256 of the CLI it serves: GET <registry>/cli/ci/<this file>',
  '# (?auth=token for the publisher-token form), or see the account page after creating a token.',
];

/** examples/ci/<file> as the repository keeps them (the spec beside this checks they match). */
export const EXAMPLE_FILES: Record<string, () => string> = {
  'github-actions.yml': () => [...NOTE, githubActions({ ...EXAMPLE, auth: 'trusted' })].join('\n'),
  'gitlab-ci.yml': () => [...NOTE, gitlabCi({ ...EXAMPLE, auth: 'trusted' })].join('\n'),
  'forgejo-actions.yml': () => [...NOTE, forgejoActions({ ...EXAMPLE, auth: 'token' })].join('\n'),
};
