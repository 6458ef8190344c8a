import semver from 'semver';
import { platformKey, type TargetPlatform } from './platform';

export interface CandidateAsset {
  name: string;
  os: string;
  arch: string;
  size: number;
  sha256: string | null;
}

export interface CandidateRelease {
  version: string;
  prerelease: boolean;
  yanked: boolean;
  minRuntimeVersion: string | null;
  assets: CandidateAsset[];
}

export type SkipReason = { version: string; reason: 'yanked' | 'prerelease' } | { version: string; reason: 'runtime'; range: string };

export interface LatestChoice {
  /** Null when every release was passed over. */
  release: CandidateRelease | null;
  /** Every newer release passed over, and why ("2.0.0 needs runtime >=3"). */
  skipped: SkipReason[];
}

export interface LatestOptions {
  prerelease: boolean;
  /** The host runtime's version: releases whose `min_runtime_version` excludes it are passed over. */
  runtime: string | null;
}

function runtimeExcluded(minRuntimeVersion: string | null, runtime: string | null): boolean {
  if (!runtime || !minRuntimeVersion) return false;
  // A single version means "at least this"; anything else is a SemVer range.
  const range = semver.valid(minRuntimeVersion) ? `>=${minRuntimeVersion}` : minRuntimeVersion;
  return !semver.satisfies(runtime, range, { includePrerelease: true });
}

/**
 * The release `/latest` answers with
 * (docs/decisions.md#catalogue-search-detail-and-the-latest-release): the first of `releases`
 * (SemVer-highest first) that is not yanked, not a prerelease unless asked, and accepts the
 * runtime; with the newer ones it passed over and why.
 */
export function chooseLatestRelease(releases: readonly CandidateRelease[], options: LatestOptions): LatestChoice {
  const skipped: SkipReason[] = [];
  for (const release of releases) {
    if (release.yanked) skipped.push({ version: release.version, reason: 'yanked' });
    else if (release.prerelease && !options.prerelease) skipped.push({ version: release.version, reason: 'prerelease' });
    else if (runtimeExcluded(release.minRuntimeVersion, options.runtime))
      skipped.push({ version: release.version, reason: 'runtime', range: release.minRuntimeVersion! });
    else return { release, skipped };
  }
  return { release: null, skipped };
}

export interface AssetChoice {
  asset: CandidateAsset;
  /** The platform key matched exactly (`linux-x64`, or `darwin-universal` for an os-only asset), null for the universal fallback. */
  platform: string | null;
}

/**
 * The asset for a target: the one built for its os and arch, else one for its os on any arch,
 * else the universal one; null when none fits.
 */
export function chooseAsset(assets: readonly CandidateAsset[], target: TargetPlatform): AssetChoice | null {
  if (target.os && target.arch) {
    const exact = assets.find((a) => a.os === target.os && a.arch === target.arch);
    if (exact) return { asset: exact, platform: platformKey(exact.os, exact.arch) };
  }
  if (target.os) {
    const osOnly = assets.find((a) => a.os === target.os && a.arch === 'universal');
    if (osOnly) return { asset: osOnly, platform: platformKey(osOnly.os, osOnly.arch) };
  }
  const universal = assets.find((a) => a.os === 'universal' && a.arch === 'universal');
  return universal ? { asset: universal, platform: null } : null;
}
