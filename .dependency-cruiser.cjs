// The house's floor plan, checked by `npm run lint` (docs/architecture.md, "Wings"). From the bottom:
//   shared   what every wing may use and that uses no wing: lib/, config/, common/, persistence/
//            (the kit features reach the database with), openapi/, client/;
//   wings    one folder each, one above another (WINGS, lowest first): a file imports shared code,
//            its own wing and the wings below it, never one above;
//   top      the entry points (src/*.ts: main, server, app factory and module, catalogue lane), the
//            operator CLI (cli/) and the database's assembly (database/: the entity list, the
//            migrations, the data source), which gathers every wing's entities.
// No file may come back to itself through its imports (no cycles, so no forwardRef).
const SHARED_FOLDERS = ['lib', 'config', 'common', 'persistence', 'openapi', 'client'];
const WINGS = ['platform', 'accounts', 'trust', 'catalogue', 'publishing', 'news', 'operator', 'mirror', 'web'];
const TOP_FOLDERS = ['cli', 'database'];

const SHARED = `^src/(${SHARED_FOLDERS.join('|')})/`;
const TOP = `^src/([^/]+\\.ts$|(${TOP_FOLDERS.join('|')})/)`;
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
      name: 'shared-imports-no-wing',
      comment: 'Shared code sits below every wing: it may import only shared code.',
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
    ...WINGS.slice(0, -1).map((wing, i) => ({
      name: 'wing-imports-only-below',
      comment: `Wings stand one above another: ${wing}/ may import shared code, itself and ${WINGS.slice(0, i).join(', ') || 'no other wing'}; never ${WINGS.slice(i + 1).join(', ')}.`,
      severity: 'error',
      from: { path: `^src/${wing}/` },
      to: { path: `^src/(${WINGS.slice(i + 1).join('|')})/` },
    })),
    {
      name: 'every-folder-has-a-floor',
      comment: `A folder directly under src/ is shared (${SHARED_FOLDERS.join(', ')}), a wing (${WINGS.join(', ')}) or the top (${TOP_FOLDERS.join(', ')}): a new feature goes into a wing, and a new wing into WINGS here.`,
      severity: 'error',
      from: { path: '^src/[^/]+/', pathNot: `^src/(${[...SHARED_FOLDERS, ...WINGS, ...TOP_FOLDERS].join('|')})/` },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.spec\\.ts$|/testing/' },
    // Type-only imports tie the layers as much as any other.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
