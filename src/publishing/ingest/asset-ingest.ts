import { Injectable } from '@nestjs/common';
import { DomainError, invalid, type ProblemFieldError } from '../../common/errors/domain-error';
import { AssetFetchError, fetchAndHashAssets } from '../../common/fetch';
import { detectPlatform } from '../../lib/platform/platform';
import type { StoredAsset } from '../../catalogue/plugins/entities/release.entity';
import { FetchPolicy } from '../../platform/fetch-policy/fetch-policy';

export interface DeclaredAsset {
  name: string;
  url: string;
  sha256?: string;
  size?: number;
}

/** Fetches and hashes every asset (bounded parallelism, flat memory) and checks what the publisher declared. */
@Injectable()
export class AssetIngest {
  constructor(private readonly policy: FetchPolicy) {}

  /** `abandon` cancels the downloads under way (their connections are closed). */
  async fetchAll(assets: readonly DeclaredAsset[], abandon?: AbortSignal): Promise<StoredAsset[]> {
    let fetched;
    try {
      fetched = await fetchAndHashAssets(assets, { ...(await this.policy.assets()), signal: abandon });
    } catch (error) {
      if (error instanceof AssetFetchError) {
        throw new DomainError('upstream-failed', 'asset-fetch-failed', error.message, undefined, {
          asset: error.assetName ?? null,
          reason: error.reason,
          ...(error.status ? { upstreamStatus: error.status } : {}),
        });
      }
      throw error;
    }
    const mismatches: ProblemFieldError[] = [];
    fetched.forEach(({ asset, fetched: got }, index) => {
      if (asset.size !== undefined && asset.size !== got.size) {
        mismatches.push({
          path: `/assets/${index}/size`,
          message: `asset "${asset.name}": declared size ${asset.size} but ${got.size} bytes were fetched`,
        });
      }
      // An asset over the hash budget is not hashed, so a declared sha256 cannot be checked there.
      if (asset.sha256 !== undefined && got.hashed) {
        if (asset.sha256.toLowerCase() !== got.sha256) {
          mismatches.push({
            path: `/assets/${index}/sha256`,
            message: `asset "${asset.name}": declared sha256 ${asset.sha256.toLowerCase()} but the fetched bytes hash to ${got.sha256}`,
          });
        }
      }
    });
    if (mismatches.length) throw invalid('asset-mismatch', `${mismatches.length} asset(s) do not match what was declared`, mismatches);
    return fetched.map(({ asset, fetched: got }) => ({
      name: asset.name,
      url: asset.url,
      size: got.size,
      sha256: got.sha256,
      hashed: got.hashed,
      contentType: got.contentType,
      ...detectPlatform(asset.name),
    }));
  }
}
