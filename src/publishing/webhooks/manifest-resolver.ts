import { Injectable } from '@nestjs/common';
import type { ReleaseAssetRef } from '../../platform/forges/webhook.types';
import { fetchText } from '../../common/fetch';
import { FetchPolicy } from '../../platform/fetch-policy/fetch-policy';
import type { ForgeLocation } from '../../platform/forges/urls';
import { MANIFEST_FILE_NAMES } from '../../lib/manifest';
import { SettingsService } from '../../platform/settings/settings.service';
import { DeliveryFailure } from './delivery-failure';
import { ForgeReleases } from './forge-releases';

export interface ResolvedManifest {
  text: string;
  fileName: string;
  /** Where it came from: the release asset, or the repository at the tag. */
  from: 'asset' | 'tag';
  /** The release's assets without the manifest asset. */
  assets: ReleaseAssetRef[];
}

/**
 * The spec's "Manifest resolution at ingest": a release asset named in `manifest.candidates`
 * (first candidate wins); none in strict mode (`manifest.require_release_asset=1`) fails with
 * manifest-asset-missing; with 0, the manifest file in the repository at the tag, through the
 * forge's API.
 */
@Injectable()
export class ManifestResolver {
  constructor(
    private readonly settings: SettingsService,
    private readonly policy: FetchPolicy,
    private readonly forgeReleases: ForgeReleases,
  ) {}

  async resolve(location: ForgeLocation | null, tag: string, assets: readonly ReleaseAssetRef[]): Promise<ResolvedManifest> {
    const candidates = await this.candidates();
    const others = assets.filter((asset) => !candidates.includes(asset.name));
    const fromAsset = await this.fromAssets(assets, candidates);
    if (fromAsset) return { ...fromAsset, from: 'asset', assets: others };
    if ((await this.settings.get('manifest.require_release_asset')) === 1) {
      throw new DeliveryFailure(
        'manifest-asset-missing',
        `the release ${tag} has no manifest asset (one of ${candidates.join(', ')}) and manifest.require_release_asset is 1`,
      );
    }
    if (!location)
      throw new DeliveryFailure(
        'manifest-not-found',
        `the release ${tag} has no manifest asset, and its repository is not on a configured forge to read it from`,
      );
    const fromTag = await this.fromRepository(location, tag);
    if (fromTag) return { ...fromTag, from: 'tag', assets: others };
    throw new DeliveryFailure(
      'manifest-not-found',
      `neither a manifest asset nor a manifest file (${MANIFEST_FILE_NAMES.join(', ')}) at tag ${tag}`,
    );
  }

  /** The asset names that may hold the manifest (setting `manifest.candidates`), first wins. */
  candidates(): Promise<readonly string[]> {
    return this.settings.get('manifest.candidates');
  }

  /** The manifest from the first release asset named as a candidate, or null when none is. */
  async fromAssets(assets: readonly ReleaseAssetRef[], candidates: readonly string[]): Promise<{ text: string; fileName: string } | null> {
    const asset = candidates.map((name) => assets.find((a) => a.name === name)).find((a) => a !== undefined);
    if (!asset) return null;
    return { text: (await fetchText(asset.url, this.policy.text())).text, fileName: asset.name };
  }

  /** The repository's manifest file at the tag (the spec's file names, in order), through the forge's API, or null. */
  async fromRepository(location: ForgeLocation, tag: string): Promise<{ text: string; fileName: string } | null> {
    for (const fileName of MANIFEST_FILE_NAMES) {
      const text = await this.forgeReleases.fileAtTag(location, tag, fileName);
      if (text !== null) return { text, fileName };
    }
    return null;
  }
}
