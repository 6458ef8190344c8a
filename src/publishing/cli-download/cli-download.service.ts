import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DomainError } from '../../common/errors/domain-error';

/** Where `npm run build` (scripts/build-cli.js) writes the single-file CLI. */
export const CLI_BUNDLE_FILE = join(__dirname, '..', '..', '..', 'dist', 'cli-bundle', 'registry.js');

export const CLI_FILE_NAME = 'registry.js';

/** The built CLI as it is served: its bytes and their SHA-256. */
export interface CliBundle {
  body: Buffer;
  /** SHA-256 of `body`, hex. */
  sha256: string;
  /** The `sha256sum` line for the file: `<hex>  registry.js\n`. */
  checksumLine: string;
  etag: string;
  /** The checksum file's own ETag (another representation, another tag). */
  checksumEtag: string;
  /** RFC 9530 `Repr-Digest` value. */
  reprDigest: string;
}

/**
 * Serves the `registry` CLI bundled into one JavaScript file (the author commands; Node.js
 * 20+, no node_modules), so CI jobs download it from the registry they publish to. The file is the
 * build's output in dist/, read when first asked for and again whenever a new build replaces it;
 * nothing here imports the CLI's code.
 */
@Injectable()
export class CliDownloadService {
  private cached: { stamp: string; bundle: CliBundle } | null = null;

  constructor(private readonly file: string = CLI_BUNDLE_FILE) {}

  bundle(): CliBundle {
    let stamp: string;
    try {
      const stat = statSync(this.file);
      stamp = `${stat.mtimeMs}:${stat.size}`;
    } catch {
      throw new DomainError('not-found', 'not-found', 'this registry has no single-file CLI built: its operator runs `npm run build`');
    }
    if (this.cached?.stamp !== stamp) this.cached = { stamp, bundle: this.read() };
    return this.cached.bundle;
  }

  private read(): CliBundle {
    const body = readFileSync(this.file);
    const digest = createHash('sha256').update(body).digest();
    const sha256 = digest.toString('hex');
    return {
      body,
      sha256,
      checksumLine: `${sha256}  ${CLI_FILE_NAME}\n`,
      etag: `"${sha256.slice(0, 32)}"`,
      checksumEtag: `"${sha256.slice(0, 32)}.sha256"`,
      reprDigest: `sha-256=:${digest.toString('base64')}:`,
    };
  }
}
