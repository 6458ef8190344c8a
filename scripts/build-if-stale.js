'use strict';
// Compiles src/ into dist/ when any source is newer than the last build (or there is none),
// so `npm start`, `npm run start:prod` and `npm test` work on a fresh clone without a separate
// build step.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const stamp = path.join(root, 'dist', '.tsbuildinfo');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else if (/\.(ts|js|css|sql)$/.test(entry.name) && !entry.name.endsWith('.spec.ts'))
      newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

function stale() {
  if (
    !fs.existsSync(stamp) ||
    !fs.existsSync(path.join(root, 'dist', 'main.js')) ||
    !fs.existsSync(path.join(root, 'dist', 'cli-bundle', 'registry.js'))
  )
    return true;
  const built = fs.statSync(stamp).mtimeMs;
  return newestMtime(path.join(root, 'src')) > built || fs.statSync(path.join(root, 'tsconfig.build.json')).mtimeMs > built;
}

function canBuild() {
  // An installed package (npm pack, or an image built with --omit=dev) has dist/ but no sources
  // or no compiler: it runs what it was shipped with.
  if (!fs.existsSync(path.join(root, 'src'))) return false;
  try {
    require.resolve('typescript/bin/tsc');
    require.resolve('esbuild');
    return true;
  } catch {
    return false;
  }
}

if (stale() && !canBuild()) {
  if (!fs.existsSync(path.join(root, 'dist', 'main.js'))) {
    process.stderr.write(
      'dist/ is missing and cannot be built here (no sources, or the development dependencies are not installed): run `npm ci && npm run build` first\n',
    );
    process.exit(1);
  }
} else if (stale()) {
  process.stderr.write('building dist/ ...\n');
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, [path.join(__dirname, 'copy-sql.js')], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, [path.join(__dirname, 'build-web.js')], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, [path.join(__dirname, 'build-cli.js')], { cwd: root, stdio: 'inherit' });
  fs.utimesSync(stamp, new Date(), new Date());
}
