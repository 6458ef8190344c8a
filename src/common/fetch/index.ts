/**
 * Fetching publisher-supplied URLs, and the forge API reads made for them, under the fetch policy
 * (docs/decisions.md#one-ingest-for-push-and-webhook-with-a-guarded-fetch):
 * https only (http and private addresses only for FETCH_ALLOW_HOSTS), every hop vetted at connect
 * time, streaming hashes. Framework-free: node built-ins only.
 */

export { AssetFetchError } from './fetch-error';
export type { AssetFetchErrorDetails, AssetFetchFailure } from './fetch-error';
export { fetchAndHashAsset, fetchAndHashAssets } from './asset-fetcher';
export type { AssetFetchOptions, FetchedAsset, FetchedReleaseAsset, NamedAssetUrl } from './asset-fetcher';
export { fetchText } from './fetch-text';
export type { FetchedText } from './fetch-text';
export { fetchBytes } from './fetch-bytes';
export type { FetchedBytes } from './fetch-bytes';
export { postBytes } from './post-bytes';
export type { PostedBytes } from './post-bytes';
export type { FetchedBody, GuardedFetchOptions } from './guarded-fetch';
export type { LookupFunction } from './fetch-target';
export type { FetchTimers } from './fetch-timers';
export { USER_AGENT } from './http-exchange';
export { vetUrl } from './vet-url';

export { policyAgents } from './policy-agent';
export type { PolicyAgentOptions, PolicyAgents } from './policy-agent';
