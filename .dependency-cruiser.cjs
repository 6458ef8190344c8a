// The house's layers, checked by `npm run lint` (docs/architecture.md, "Layers"). From the bottom:
//   shared  what every feature may use and that uses no feature: lib/, config/, common/,
//           persistence/ (the kit features reach the database with), openapi/, client/;
//   feature every other folder under src/, one per feature: features may use one another, but
//           no file may come back to itself through its imports (no cycles, so no forwardRef);
//   top     the entry points (src/*.ts: main, server, app factory and module, catalogue lane), the
//           operator CLI (cli/) and the database's assembly (database/: the entity list, the
//           migrations, the data source), which gathers every feature's entities.
const SHARED = '^src/(lib|config|common|persistence|openapi|client)/';
const TOP = '^src/([^/]+\\.ts$|cli/|database/)';
// Within the shared layer, what each folder may import besides itself: config reads the
// environment with lib's grammars, common builds on config, the database kit and OpenAPI on common.
const SHARED_BELOW = {
  lib: [],
  client: [],
  config: ['lib'],
  common: ['lib', 'config'],
  persistence: ['lib', 'config', 'common'],
  openapi: ['lib', 'config', 'common'],
};

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'Files that import each other in a loop: Nest resolves such modules only through forwardRef.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'nothing-imports-the-top',
      comment: 'Only the entry points, the CLI and the database assembly may import one another.',
      severity: 'error',
      from: { path: '^src/', pathNot: TOP },
      to: { path: TOP },
    },
    {
      name: 'shared-imports-no-feature',
      comment: 'Shared code sits below every feature: it may import only shared code.',
      severity: 'error',
      from: { path: SHARED },
      to: { path: '^src/', pathNot: SHARED },
    },
    ...Object.entries(SHARED_BELOW).map(([folder, below]) => ({
      name: 'shared-imports-only-below',
      comment: `Shared folders stand one above another: ${folder}/ may import only ${below.join(', ') || 'itself'}.`,
      severity: 'error',
      from: { path: `^src/${folder}/` },
      to: { path: SHARED, pathNot: `^src/(${[folder, ...below].join('|')})/` },
    })),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.spec\\.ts$|/testing/' },
    // Type-only imports tie the layers as much as any other.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
