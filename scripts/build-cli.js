'use strict';
// Bundles the `registry` CLI (src/cli/main.ts) into one JavaScript file that runs on plain
// Node.js 20+ with no node_modules: dist/cli-bundle/registry.js, with its SHA-256 beside it in
// registry.js.sha256 (the `sha256sum` format). The registry serves both at /cli/registry.js and
// /cli/registry.js.sha256 (src/publishing/cli-download), so CI jobs download the CLI from the instance they
// publish to. Only the author tools are in it (validate, publish, verify, latest): the operator commands
// need the server's code and its database, and answer with where to run them instead.
// Offline: esbuild only. Run by `npm run build` and scripts/build-if-stale.js.
const esbuild = require('esbuild');
const { spawnSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.join(__dirname, '..');
const out = path.join(root, 'dist', 'cli-bundle');
const file = path.join(out, 'registry.js');
const OPERATOR_COMMANDS = ['serve', 'migrate', 'keys', 'users', 'sessions'];

/** Stands in for an operator command: it needs the registry's installation, not this file. */
const operatorStub = {
  name: 'operator-commands',
  setup(build) {
    const filter = new RegExp(`^\\./commands/(${OPERATOR_COMMANDS.join('|')})$`);
    build.onResolve({ filter }, (args) => ({ path: args.path.slice('./commands/'.length), namespace: 'operator-command' }));
    build.onLoad({ filter: /.*/, namespace: 'operator-command' }, (args) => ({
      loader: 'js',
      contents: `
        exports.summary = '(operator command: run it where the registry is installed)';
        exports.run = async (_args, io) => {
          io.stderr("registry ${args.path}: an operator command, not in the single-file CLI; run it with the registry's own installation (npx registry ${args.path})\\n");
          return 2;
        };`,
    }));
  },
};

// src/cli/main.ts runs itself when it is the main module, which it is inside the bundle.
const ENTRY = "require('./src/cli/main');\n";

async function main() {
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const result = await esbuild.build({
    stdin: { contents: ENTRY, resolveDir: root, sourcefile: 'registry-cli-entry.js', loader: 'js' },
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: ['node20'],
    minify: true,
    sourcemap: false,
    legalComments: 'eof',
    banner: { js: '#!/usr/bin/env node' },
    plugins: [operatorStub],
    metafile: true,
    logLevel: 'warning',
  });
  const bundled = Object.keys(result.metafile.inputs);
  const framework = bundled.filter((input) => /node_modules\/(@nestjs|typeorm|pg|@electric-sql|sharp)\//.test(input));
  if (framework.length > 0)
    throw new Error(`the single-file CLI must not bundle the server's framework, but it holds ${framework.slice(0, 5).join(', ')}`);
  fs.chmodSync(file, 0o755);
  // It must run on its own: from an empty folder, with no node_modules to fall back on.
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-cli-'));
  try {
    fs.copyFileSync(file, path.join(scratch, 'registry.js'));
    const help = spawnSync(process.execPath, ['registry.js', '--help'], {
      cwd: scratch,
      encoding: 'utf8',
      env: { PATH: process.env.PATH },
    });
    if (help.status !== 0 || (help.stderr.match(/^ {2}validate /gm) ?? []).length !== 1) {
      throw new Error(`the single-file CLI does not run on its own: exit ${help.status}\n${help.stdout}${help.stderr}`);
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  const sha256 = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  fs.writeFileSync(`${file}.sha256`, `${sha256}  registry.js\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
