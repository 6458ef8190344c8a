import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { DomainError } from '../common/errors/domain-error';

/** Where `npm run build` (scripts/build-web.js) puts the browser bundles and the stylesheet. */
export const WEB_ASSETS_DIR = join(__dirname, '..', '..', 'dist', 'web-assets');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export interface WebAsset {
  body: Buffer;
  type: string;
  /** A content hash: the URL's `?v=`, so a new build is fetched at once and an old one cached long. */
  version: string;
}

/**
 * The built front-end files, read once at startup and served from memory: only names in this
 * set can be asked for, so a request can never reach outside the folder.
 */
@Injectable()
export class WebAssets {
  private readonly files = new Map<string, WebAsset>();

  constructor() {
    if (!existsSync(WEB_ASSETS_DIR)) return;
    for (const name of readdirSync(WEB_ASSETS_DIR)) {
      const type = TYPES[extname(name)];
      if (!type) continue;
      const body = readFileSync(join(WEB_ASSETS_DIR, name));
      this.files.set(name, { body, type, version: createHash('sha256').update(body).digest('hex').slice(0, 12) });
    }
  }

  has(name: string): boolean {
    return this.files.has(name);
  }

  require(name: string): WebAsset {
    const asset = this.files.get(name);
    if (!asset) throw new DomainError('not-found', 'not-found', `no front-end asset named ${name}`);
    return asset;
  }

  url(name: string): string {
    const asset = this.files.get(name);
    return asset ? `/assets/${name}?v=${asset.version}` : `/assets/${name}`;
  }
}
