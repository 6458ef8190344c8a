import { Injectable } from '@nestjs/common';
import { AssetFetchError, fetchBytes } from '../common/fetch';
import { type EncodedPicture, encodePicture, type ImagePlan } from './image-encoder';
import { ImageFetchPolicy } from './image-fetch-policy';
import { ImageRefusal } from './image-refusal';
import { PictureGate } from './picture-gate';

/** Pictures decoded at once in this process. */
const DECODES_AT_ONCE = 1;

/** Why a picture could not be had: `fetch` (the upstream failed, was refused or too large) or `refused` (not an accepted image). */
export class PictureFailure extends Error {
  constructor(
    readonly stage: 'fetch' | 'refused',
    message: string,
    readonly upstreamStatus?: number,
  ) {
    super(message);
    this.name = 'PictureFailure';
  }
}

/**
 * Fetches a picture through the SSRF-safe fetcher under the image policy, checks its bytes and
 * encodes it (image-encoder.ts), one decode at a time in the process. Every failure is a
 * PictureFailure whose message is safe to show the publisher.
 */
@Injectable()
export class PictureFetcher {
  private readonly gate = new PictureGate(DECODES_AT_ONCE);

  constructor(private readonly policy: ImageFetchPolicy) {}

  /** `byteCap` lowers the policy's byte cap (the `images.max_bytes` setting) for this fetch. */
  async fetch(url: string, plan: ImagePlan, signal?: AbortSignal, byteCap?: number): Promise<EncodedPicture> {
    let bytes: Buffer;
    try {
      bytes = (await fetchBytes(url, { ...(await this.policy.options(byteCap)), signal })).bytes;
    } catch (error) {
      if (error instanceof AssetFetchError) throw new PictureFailure('fetch', error.message, error.status);
      throw error;
    }
    try {
      return await this.gate.run(() => encodePicture(bytes, plan));
    } catch (error) {
      if (error instanceof ImageRefusal) throw new PictureFailure('refused', error.message);
      throw error;
    }
  }
}
