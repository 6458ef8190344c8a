import { Inject, Injectable } from '@nestjs/common';
import { AssetFetchError, fetchBytes } from '../../common/fetch';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { type EncodedPicture, encodePicture, type ImagePlan } from './image-encoder';
import { ImageFetchPolicy, type PictureSource } from './image-fetch-policy';
import { ImageRefusal } from './image-refusal';
import { type PictureBound, PictureBudget, type PictureHold } from './picture-budget';
import { PictureGate } from './picture-gate';

/** Pictures decoded at once in this process. */
const DECODES_AT_ONCE = 1;
/**
 * Release pictures (ingest, manifest refresh) downloaded or decoded at once in this process: the
 * one in the decoder and the next one, downloading meanwhile. Their turn is taken before the
 * download, so however many releases ingest at once, no more sources than this are held.
 */
export const RELEASE_PICTURES_AT_ONCE = 2;

const MiB = 1024 * 1024;

/**
 * Why a picture could not be had: `fetch` (the upstream failed, was refused or too large),
 * `refused` (not an accepted image), `held` (taking it would pass a bound on the picture bytes
 * held, PICTURE_MEMORY_BYTES or PICTURE_MEMORY_BYTES_PER_USER) or `busy` (its release waited
 * PICTURE_WAIT_MS for a turn and it had none).
 */
export class PictureFailure extends Error {
  constructor(
    readonly stage: 'fetch' | 'refused' | 'held' | 'busy',
    message: string,
    readonly upstreamStatus?: number,
  ) {
    super(message);
    this.name = 'PictureFailure';
  }
}

/**
 * Fetches a picture through the SSRF-safe fetcher under the image policy, checks its bytes and
 * encodes it (image-encoder.ts), one decode at a time in the process. Every byte it holds counts
 * against the caller's PictureHold as it arrives (the download), while it waits for and is in the
 * decoder (the source), and afterwards (the encodings, until the caller releases the hold): a
 * picture that would pass a bound is dropped there and then, so concurrent ingests never hold
 * more than the bounds, and a slow upstream never holds the decoder. A release's pictures also
 * take turns before they are downloaded (`fetchInTurn`), so they are not held while they queue.
 * Every failure is a PictureFailure whose message is safe to show the publisher.
 */
@Injectable()
export class PictureFetcher {
  private readonly decoder = new PictureGate(DECODES_AT_ONCE);
  private readonly releaseTurns = new PictureGate(RELEASE_PICTURES_AT_ONCE);
  /**
   * Source buffers handed from one release turn to the next (at most one per turn) instead of left
   * to the collector, which frees dead buffers only once tens of MiB of them have built up: a
   * picture's source becomes garbage right after its decode. Dropped once the turns are idle.
   */
  private readonly spareSources: Buffer[] = [];
  private readonly waitMs: number;
  /** The bytes held, per instance and per owner; read by tests. */
  readonly budget: PictureBudget;

  constructor(
    private readonly policy: ImageFetchPolicy,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.budget = new PictureBudget(config.pictureMemoryBytes, config.pictureMemoryBytesPerUser);
    this.waitMs = config.pictureWaitMs;
  }

  /** How long one release's pictures may wait for their turns, all together: aborts PICTURE_WAIT_MS from now. */
  patience(): AbortSignal {
    return AbortSignal.timeout(this.waitMs);
  }

  /**
   * A release's picture: waits for a turn (RELEASE_PICTURES_AT_ONCE) before it is downloaded,
   * holding nothing meanwhile, then is fetched as `fetch` does. Once `patience` (the release's,
   * from `patience()`) is aborted, a picture still waiting is left out (`busy`) without a fetch.
   */
  async fetchInTurn(url: string, plan: ImagePlan, hold: PictureHold, patience: AbortSignal, signal?: AbortSignal): Promise<EncodedPicture> {
    let started = false;
    try {
      return await this.releaseTurns.run(
        () => {
          started = true;
          return this.fetchIntoSpare(url, plan, hold, signal);
        },
        signal ? AbortSignal.any([patience, signal]) : patience,
      );
    } catch (error) {
      if (started) throw error;
      if (signal?.aborted) throw new PictureFailure('fetch', 'the ingest was abandoned before it was fetched');
      throw new PictureFailure(
        'busy',
        `the registry was decoding other pictures for as long as a release's pictures may wait (${formatSeconds(this.waitMs)}); it is fetched again when the manifest is refreshed or the next release names it`,
      );
    } finally {
      // An idle instance keeps no spare: they are collected with the next garbage.
      if (this.releaseTurns.idle) this.spareSources.length = 0;
    }
  }

  /** `fetch` into a spare source buffer (a larger one replaces it), handed back once the picture is decoded: nothing keeps the source past that. */
  private async fetchIntoSpare(url: string, plan: ImagePlan, hold: PictureHold, signal: AbortSignal | undefined): Promise<EncodedPicture> {
    let spare = this.spareSources.pop();
    const allocate = (length: number) => {
      if (!spare || spare.length < length) spare = Buffer.allocUnsafe(length);
      return spare.subarray(0, length);
    };
    try {
      return await this.fetchWith(url, plan, hold, signal, 'release', allocate);
    } finally {
      if (spare) this.spareSources.push(spare);
    }
  }

  /** An account for one ingest (or proxied image) of `owner`'s; release it once its pictures are no longer kept. */
  hold(owner: string): PictureHold {
    return this.budget.hold(owner);
  }

  /** `source` picks the fetch policy (ImageFetchPolicy): a release's, or the README proxy's. */
  async fetch(
    url: string,
    plan: ImagePlan,
    hold: PictureHold,
    signal?: AbortSignal,
    source: PictureSource = 'release',
  ): Promise<EncodedPicture> {
    return this.fetchWith(url, plan, hold, signal, source);
  }

  private async fetchWith(
    url: string,
    plan: ImagePlan,
    hold: PictureHold,
    signal: AbortSignal | undefined,
    source: PictureSource,
    allocate?: (length: number) => Buffer,
  ): Promise<EncodedPicture> {
    const bytes = await this.download(url, hold, signal, source, allocate);
    let picture: EncodedPicture;
    try {
      picture = await this.decoder.run(() => encodePicture(bytes, plan));
    } catch (error) {
      if (error instanceof ImageRefusal) throw new PictureFailure('refused', error.message);
      throw error;
    } finally {
      hold.give(bytes.length);
    }
    const refused = hold.take(picture.variants.reduce((sum, variant) => sum + variant.bytes.length, 0));
    if (refused) throw this.overBound(refused);
    return picture;
  }

  private async download(
    url: string,
    hold: PictureHold,
    signal: AbortSignal | undefined,
    source: PictureSource,
    allocate?: (length: number) => Buffer,
  ): Promise<Buffer> {
    const stop = new AbortController();
    const taking: { bytes: number; refused: PictureBound | null } = { bytes: 0, refused: null };
    // Takes more of the bound as the body needs it, or refuses and stops the download.
    const takeUpTo = (needed: number) => {
      if (taking.refused || needed <= taking.bytes) return;
      taking.refused = hold.take(needed - taking.bytes);
      if (taking.refused) stop.abort();
      else taking.bytes = needed;
    };
    try {
      const policy = await this.policy.options(source);
      const options = {
        ...policy,
        signal: signal ? AbortSignal.any([signal, stop.signal]) : stop.signal,
        // A declared length is taken whole before the body is read: a picture past the bound costs no download.
        onBodyLength: (declared: number) => takeUpTo(Math.min(declared, policy.maxBytes)),
      };
      let received = 0;
      const fetched = await fetchBytes(url, options, (chunk) => takeUpTo((received += chunk.length)), allocate);
      if (taking.refused) throw this.overBound(taking.refused);
      // What was taken for a longer declared length than arrived is given back.
      hold.give(taking.bytes - fetched.bytes.length);
      taking.bytes = fetched.bytes.length;
      return fetched.bytes;
    } catch (error) {
      hold.give(taking.bytes);
      if (taking.refused) throw this.overBound(taking.refused);
      if (error instanceof AssetFetchError) throw new PictureFailure('fetch', error.message, error.status);
      throw error;
    }
  }

  private overBound(bound: PictureBound): PictureFailure {
    const [limit, whose] = bound === 'instance' ? [this.budget.instanceBytes, 'in all'] : [this.budget.ownerBytes, 'for one publisher'];
    return new PictureFailure(
      'held',
      `the registry was already holding as many picture bytes as it may at once (${formatBytes(limit)} ${whose}); it is fetched again when the manifest is refreshed or the next release names it`,
    );
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

function formatBytes(bytes: number): string {
  if (bytes % MiB === 0) return `${bytes / MiB} MiB`;
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}
