import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { AssetFetchError } from '../../common/fetch';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { decodeEntryBundle, MAX_LOG_ENTRY_BYTES, TILE_WIDTH, TileError } from '../../lib/transparency';
import { upstreamMalformed, upstreamRefusal, upstreamUnreadable } from './upstream-log-errors';
import { UPSTREAM_LOG_TRANSPORT, type UpstreamLogTransport } from './upstream-log-transport';
import { TileCache } from './tile-cache';

/** How long a head read from upstream is served again: a verifier's head and proofs come within it. */
export const HEAD_TTL_MS = 3000;
/** A signed note: a few short lines and a few signatures. */
const MAX_NOTE_BYTES = 16 * 1024;
/** A proof (at most ~64 hashes and an entry), an entry or the key: far less than this. */
const MAX_JSON_BYTES = 256 * 1024;
/** A full entry tile of the largest entries a leaf may have; a hash tile is 8 KiB. */
const MAX_TILE_BYTES = TILE_WIDTH * (2 + MAX_LOG_ENTRY_BYTES);

/** A tile as the route answers it (the same headers the registry gives its own). */
export interface UpstreamTile {
  body: Buffer;
  headers: Record<string, string>;
}

const FULL_TILE_HEADERS = { 'Content-Type': 'application/octet-stream', 'Cache-Control': 'public, max-age=31536000, immutable' };
const PARTIAL_TILE_HEADERS = { 'Content-Type': 'application/octet-stream', 'Cache-Control': 'public, max-age=60' };

/**
 * A mirror's transparency log: upstream's, read through and served as upstream gave it (MIRROR_OF,
 * docs/mirror.md). Nothing is signed here: upstream's signed notes verify with upstream's keys,
 * which are the key set a mirror serves. The head is kept a few seconds and full tiles (immutable)
 * in a bounded cache; everything else is read each time, once for all the requests that ask it
 * while it is under way. Upstream's 4xx refusals are passed on, its failures are 502 and its
 * silence 504.
 */
/** A hash tile holds `width` hashes of 32 bytes; an entry bundle, `width` length-prefixed entries. */
function tileShaped(body: Buffer, level: number | 'entries', width: number): boolean {
  if (level !== 'entries') return body.length === width * 32;
  try {
    return decodeEntryBundle(body).length === width;
  } catch (error) {
    if (error instanceof TileError) return false;
    throw error;
  }
}

@Injectable()
export class UpstreamLog {
  private head: { note: Promise<string>; readAt: number } | null = null;
  private readonly tiles = new TileCache();
  /** Reads under way, by path (each path has one size bound and one media type). */
  private readonly inFlight = new Map<string, Promise<Buffer>>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(UPSTREAM_LOG_TRANSPORT) private readonly transport: UpstreamLogTransport,
    private readonly clock: Clock,
  ) {}

  private get upstream(): string {
    return this.config.mirrorOf!;
  }

  /**
   * Upstream's answer to `path`, read once for every request asking it meanwhile: a verifier's
   * crowd after a release asks the same proofs and tiles at once, and upstream's rate limit is
   * the mirror's, not each client's. Callers share the bytes (each parses its own copy of JSON).
   */
  private read(path: string, maxBytes: number, accept: string): Promise<Buffer> {
    const pending = this.inFlight.get(path);
    if (pending) return pending;
    const read = this.readOnce(path, maxBytes, accept).finally(() => this.inFlight.delete(path));
    this.inFlight.set(path, read);
    return read;
  }

  /** Upstream's answer to `path` when 2xx; its refusal or failure as a DomainError. */
  private async readOnce(path: string, maxBytes: number, accept: string): Promise<Buffer> {
    let answer: Awaited<ReturnType<UpstreamLogTransport>>;
    try {
      answer = await this.transport(`${this.upstream}${path}`, maxBytes, accept);
    } catch (error) {
      if (error instanceof AssetFetchError) throw upstreamUnreadable(this.upstream, error);
      throw error;
    }
    if (answer.status >= 400) throw upstreamRefusal(this.upstream, answer.status, answer.body);
    // A 204, a 206 or anything else but a whole answer is not one to pass on, let alone keep.
    if (answer.status !== 200) throw upstreamMalformed(this.upstream, `${path} answered ${answer.status}`);
    return answer.body;
  }

  private async json<T extends object>(path: string): Promise<T> {
    const body = await this.read(path, MAX_JSON_BYTES, 'application/json');
    try {
      const value: unknown = JSON.parse(body.toString('utf8'));
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as T;
    } catch {
      // reported below
    }
    throw upstreamMalformed(this.upstream, `${path} with something that is not a JSON object`);
  }

  /** Upstream's signed checkpoint, as upstream signed it; read again after HEAD_TTL_MS (or forgetHead), one read at a time. */
  checkpoint(): Promise<string> {
    const now = this.clock.nowMs();
    if (this.head && now - this.head.readAt < HEAD_TTL_MS) return this.head.note;
    // Not the shared read: forgetHead() must start a new read, never hand out one under way.
    const note = this.readOnce('/api/log/head', MAX_NOTE_BYTES, 'text/plain').then((body) => body.toString('utf8'));
    const head = { note, readAt: now };
    this.head = head;
    // A failed read is not kept: the next request asks upstream again.
    note.catch(() => {
      if (this.head === head) this.head = null;
    });
    return note;
  }

  /**
   * Forgets the head kept: the mirror copied a release upstream logged after it, and a verifier
   * asking now must get a head that holds its entry.
   */
  forgetHead(): void {
    this.head = null;
  }

  /*
   * The JSON reads: upstream's object, passed on as upstream gave it and not checked here (the
   * route's DTO is `T`); a client verifies what it proves, as it would against upstream.
   */

  key<T extends object>(): Promise<T> {
    return this.json('/api/log/key');
  }

  inclusion<T extends object>(index: number, size?: number): Promise<T> {
    return this.json(`/api/log/proof/inclusion?index=${index}${size === undefined ? '' : `&size=${size}`}`);
  }

  consistency<T extends object>(from: number, to: number): Promise<T> {
    return this.json(`/api/log/proof/consistency?from=${from}&to=${to}`);
  }

  entry<T extends object>(index: number): Promise<T> {
    return this.json(`/api/log/entries/${index}`);
  }

  /**
   * `path`: a canonical tile path (`tile/…`, as parseTilePath accepts it), naming `tile` (a null
   * width: a full tile). Upstream's bytes are passed on only when they are the tile's shape (a
   * hash tile of width·32 bytes, an entry bundle of width entries), so a proxy's error page is
   * never kept as an immutable tile.
   */
  async tile(path: string, tile: { level: number | 'entries'; width: number | null }): Promise<UpstreamTile> {
    const full = tile.width === null;
    const kept = full ? this.tiles.get(path) : undefined;
    if (kept) return { body: kept, headers: FULL_TILE_HEADERS };
    const body = await this.read(`/log/${path}`, MAX_TILE_BYTES, 'application/octet-stream');
    if (!tileShaped(body, tile.level, tile.width ?? TILE_WIDTH))
      throw upstreamMalformed(this.upstream, `/log/${path} is not a tile of its width`);
    if (!full) return { body, headers: PARTIAL_TILE_HEADERS };
    this.tiles.put(path, body);
    return { body, headers: FULL_TILE_HEADERS };
  }
}
