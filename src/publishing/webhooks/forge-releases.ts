import { Injectable } from '@nestjs/common';
import { forgeAdapter } from '../../platform/forges/adapters';
import type { ForgeRelease } from '../../platform/forges/webhook.types';
import { AssetFetchError, fetchText } from '../../common/fetch';
import { FetchPolicy } from '../../platform/fetch-policy/fetch-policy';
import { fileContentsApiRequest, type ForgeLocation } from '../../platform/forges/urls';

const trimmed = (url: string) => url.replace(/\/+$/, '');

/**
 * Releases and files read through a forge's API, with the instance's token when one is
 * configured, under the ingest's fetch policy. A 404 is "not there" (null); every other failure
 * is the fetch's AssetFetchError, for the caller to retry or report.
 */
@Injectable()
export class ForgeReleases {
  constructor(private readonly policy: FetchPolicy) {}

  private async getJson(location: ForgeLocation, url: string): Promise<unknown | null> {
    const text = await this.get(location, url, { Accept: 'application/json' });
    if (text === null) return null;
    try {
      return JSON.parse(text);
    } catch {
      throw new AssetFetchError('status', `${location.forge.name} answered ${url} with something other than JSON`, { url });
    }
  }

  private async get(location: ForgeLocation, url: string, headers: Record<string, string>): Promise<string | null> {
    const token = location.forge.token;
    const authorization: Record<string, string> = token ? { Authorization: forgeAdapter(location.forge.type).authorization(token) } : {};
    try {
      return (await fetchText(url, { ...this.policy.text(), headers: { ...headers, ...authorization } })).text;
    } catch (error) {
      if (error instanceof AssetFetchError && error.status === 404) return null;
      throw error;
    }
  }

  async releaseByTag(location: ForgeLocation, tag: string): Promise<ForgeRelease | null> {
    const adapter = forgeAdapter(location.forge.type);
    const document = await this.getJson(location, adapter.releaseByTagApiUrl(trimmed(location.forge.apiUrl), location.repoPath, tag));
    return document === null ? null : adapter.parseRelease(document);
  }

  async recentReleases(location: ForgeLocation, limit: number): Promise<ForgeRelease[]> {
    const adapter = forgeAdapter(location.forge.type);
    const document = await this.getJson(location, adapter.recentReleasesApiUrl(trimmed(location.forge.apiUrl), location.repoPath, limit));
    if (!Array.isArray(document)) return [];
    return document.flatMap((item) => adapter.parseRelease(item) ?? []).filter((release) => !release.draft);
  }

  /** A file's text at a tag, or null when the repository has no such file there. */
  fileAtTag(location: ForgeLocation, tag: string, path: string): Promise<string | null> {
    const request = fileContentsApiRequest(location.forge, location.repoPath, tag, path);
    return this.get(location, request.url, { ...request.headers });
  }
}
