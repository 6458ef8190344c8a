import { Injectable, Logger } from '@nestjs/common';
import type { ForgeInstanceConfig } from '../config/config.types';
import { ForgeRegistry } from '../forges/forge-registry';
import { fetchText } from '../ingest/fetch';
import { forgeReadmeContext, README_MAX_LENGTH, renderReadme, urlReadmeContext } from '../ingest/readme';
import { forgeForUrl, rawFileUrl } from '../lib/forge';
import type { Manifest } from '../lib/manifest';
import { FetchPolicy } from './fetch-policy';

const DEFAULT_README = 'README.md';

function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/**
 * Renders the README(s) a manifest points at: repo-relative paths are read from the forge at the
 * release tag, URLs are fetched through the ingest fetch policy. A README that cannot be read
 * does not fail the release; the catalogue then shows none.
 */
@Injectable()
export class ReadmeIngest {
  private readonly logger = new Logger('ReadmeIngest');

  constructor(
    private readonly forges: ForgeRegistry,
    private readonly policy: FetchPolicy,
  ) {}

  /** `{default: html}` for a single README, or one entry per locale of `readmes`. */
  async render(manifest: Manifest, repoUrl: string, tag: string): Promise<Record<string, string>> {
    const located = forgeForUrl(repoUrl, this.forges.all());
    const sources: [string, string][] = manifest.readmes
      ? Object.entries(manifest.readmes)
      : [['default', manifest.readme ?? DEFAULT_README]];
    const out: Record<string, string> = {};
    for (const [locale, source] of sources) {
      const html = await this.renderOne(source, located, tag).catch((error: Error) => {
        this.logger.warn(`README ${source} of ${repoUrl}@${tag} not rendered: ${error.message}`);
        return null;
      });
      if (html !== null) out[locale] = html;
    }
    if (manifest.readmes && manifest.readme && !out.default) {
      const html = await this.renderOne(manifest.readme, located, tag).catch(() => null);
      if (html !== null) out.default = html;
    }
    return out;
  }

  private async renderOne(source: string, located: { forge: ForgeInstanceConfig; repoPath: string } | null, tag: string): Promise<string | null> {
    if (isUrl(source)) {
      const text = await this.fetchMarkdown(source);
      return renderReadme(text, urlReadmeContext(source));
    }
    if (!located) return null;
    const readmePath = source.replace(/^\.?\//, '');
    const text = await this.fetchMarkdown(rawFileUrl(located.forge, located.repoPath, tag, readmePath));
    return renderReadme(text, forgeReadmeContext({ forge: located.forge, repoPath: located.repoPath, tag, readmePath }));
  }

  private async fetchMarkdown(url: string): Promise<string> {
    const fetched = await fetchText(url, this.policy.text());
    return fetched.text.slice(0, README_MAX_LENGTH + 1);
  }
}
