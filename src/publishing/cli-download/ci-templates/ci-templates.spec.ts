import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { EXAMPLE_FILES } from './example-templates';
import { githubActions } from './github-actions';

const EXAMPLES = join(__dirname, '..', '..', '..', '..', 'examples', 'ci');

describe('CI templates', () => {
  it('keeps examples/ci as the renderer writes them (UPDATE_CI_EXAMPLES=1 rewrites them)', () => {
    for (const [file, render] of Object.entries(EXAMPLE_FILES)) {
      if (process.env.UPDATE_CI_EXAMPLES === '1') writeFileSync(join(EXAMPLES, file), render());
      expect([file, readFileSync(join(EXAMPLES, file), 'utf8')]).toEqual([file, render()]);
      expect(() => parse(render(), { uniqueKeys: true })).not.toThrow();
    }
  });

  it('quotes the values it is given, so none can add YAML of its own', () => {
    const document = parse(githubActions({ baseUrl: 'https://x.example/"\n  evil: 1', oidcAudience: 'a', cliSha256: 'ab', auth: 'token' }));
    expect(document.env).toEqual({ REGISTRY_URL: 'https://x.example/"\n  evil: 1', REGISTRY_CLI_SHA256: 'ab' });
  });
});
