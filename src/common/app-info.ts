import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// src/common and dist/common sit at the same depth below the package root.
const packageJson = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };

/** The registry's own version, from package.json, read once. */
export const APP_VERSION: string = packageJson.version;
