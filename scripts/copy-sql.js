'use strict';
// Copies the SQL files under src/ (each database function's current text, beside the feature that
// owns it: src/database/trigger-functions.ts) into dist/, where the compiled migrations read them.
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
let copied = 0;
(function walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (entry.name.endsWith('.sql')) {
      const target = path.join(root, 'dist', path.relative(path.join(root, 'src'), full));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(full, target);
      copied += 1;
    }
  }
})(path.join(root, 'src'));
process.stdout.write(`copied ${copied} SQL files into dist/\n`);
