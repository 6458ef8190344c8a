'use strict';
// Bundles the web front end's browser code (src/web/browser/*.ts entry points, each a page's
// enhancement, with the typed API client inlined) and copies its stylesheet into
// dist/web-assets, where the server reads them at startup. Offline: esbuild only.
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const source = path.join(root, 'src', 'web', 'browser');
const out = path.join(root, 'dist', 'web-assets');

async function main() {
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const entries = fs.readdirSync(source).filter((name) => name.endsWith('.ts') && !name.endsWith('.spec.ts'));
  await esbuild.build({
    entryPoints: entries.map((name) => path.join(source, name)),
    outdir: out,
    bundle: true,
    format: 'esm',
    target: ['es2020'],
    minify: true,
    sourcemap: false,
    logLevel: 'warning',
    legalComments: 'none',
  });
  for (const name of fs.readdirSync(source).filter((n) => n === 'app.css')) {
    await esbuild.build({
      entryPoints: [path.join(source, name)],
      outfile: path.join(out, name),
      bundle: true,
      minify: true,
      logLevel: 'warning',
    });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
