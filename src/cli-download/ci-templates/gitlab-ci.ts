import { inComment, pinComment, quoted, type TemplateValues } from './template-values';

/** GitLab CI: an excerpt of `.gitlab-ci.yml`, on a tag, the asset in GitLab's generic package registry. */
export function gitlabCi(values: TemplateValues): string {
  const trusted = values.auth === 'trusted';
  const how = trusted
    ? [
        '# Trusted publishing (no stored secret): an owner of the plugin adds this project as a trusted',
        '# publisher (POST /api/plugins/<slug>/trusted-publishers with forge "gitlab", repository',
        '# "<group>/<project>", workflow ".gitlab-ci.yml", optionally ref "refs/tags/v*" and environment',
        '# "registry"); for a plugin that does not exist yet, register a pending publisher',
        '# (POST /api/auth/me/pending-publishers). Only the publish job declares `id_tokens`, so only it',
        '# gets an OIDC ID token, which `registry publish` exchanges for a 15-minute token.',
      ]
    : [
        '# Add the CI/CD variable REGISTRY_TOKEN (a publisher token scoped publish:<your-plugin>): masked,',
        '# protected (protect your release tags) and with environment scope "registry", so that of the',
        '# jobs below only the publish job, which deploys to that environment, receives it.',
      ];
  return [
    '# .gitlab-ci.yml (an excerpt): on a tag, build the plugin, put it in the package registry and',
    `# publish it to the registry at ${inComment(values.baseUrl)}.`,
    '#',
    ...how,
    '#',
    ...pinComment(),
    'variables:',
    `  REGISTRY_URL: ${quoted(values.baseUrl)}`,
    `  REGISTRY_CLI_SHA256: ${quoted(values.cliSha256)}`,
    '',
    'registry-cli:',
    '  # No OIDC ID token and no environment here, so no environment-scoped secret either.',
    '  stage: build',
    '  image: node:20',
    '  rules:',
    '    - if: $CI_COMMIT_TAG',
    '  script:',
    '    - curl --fail-with-body -sSL -o registry.js "$REGISTRY_URL/cli/registry.js"',
    '    - echo "$REGISTRY_CLI_SHA256  registry.js" | sha256sum -c -',
    '  artifacts:',
    '    paths: [registry.js]',
    '    expire_in: 1 hour',
    '',
    'publish:',
    '  stage: deploy',
    '  image: node:20',
    '  rules:',
    '    - if: $CI_COMMIT_TAG',
    '  needs: [registry-cli]',
    '  environment: registry',
    ...(trusted ? ['  id_tokens:', '    REGISTRY_ID_TOKEN:', `      aud: ${quoted(values.oidcAudience)}`] : []),
    '  script:',
    '    - npm ci && npm run build && tar czf my-plugin.tgz dist .plugin.yaml',
    '    - >-',
    '      curl --fail-with-body --header "JOB-TOKEN: $CI_JOB_TOKEN" --upload-file my-plugin.tgz',
    '      "$CI_API_V4_URL/projects/$CI_PROJECT_ID/packages/generic/my-plugin/$CI_COMMIT_TAG/my-plugin.tgz"',
    // Checked again right before it runs: the build above could have replaced the file.
    '    - echo "$REGISTRY_CLI_SHA256  registry.js" | sha256sum -c -',
    '    - >-',
    '      node registry.js publish',
    '      --version "$CI_COMMIT_TAG"',
    '      --asset-file "my-plugin.tgz=$CI_API_V4_URL/projects/$CI_PROJECT_ID/packages/generic/my-plugin/$CI_COMMIT_TAG/my-plugin.tgz"',
    '      --repo-url "$CI_PROJECT_URL"',
    '',
  ].join('\n');
}
