import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { badRequest, notFound } from '../../common/errors/domain-error';
import { encodeEntryBundle, parseTilePath, TILE_HEIGHT } from '../../lib/transparency';
import { UpstreamLog } from '../mirror-log/upstream-log';
import { TransparencyRepository } from '../transparency-log/transparency.repository';

/** Hashes (or entries) in a full tile. */
const TILE_WIDTH = 2 ** TILE_HEIGHT;

export interface TileAnswer {
  body: Buffer;
  headers: Record<string, string>;
}

/** A full tile never changes; a partial one is replaced by a wider one as the log grows. */
const FULL_TILE_HEADERS = { 'Content-Type': 'application/octet-stream', 'Cache-Control': 'public, max-age=31536000, immutable' };
const PARTIAL_TILE_HEADERS = { 'Content-Type': 'application/octet-stream', 'Cache-Control': 'public, max-age=60' };

/**
 * C2SP tlog-tiles: `tile/<L>/<N>[.p/<W>]` is hashes of tree level L·8, indexes N·256 … N·256+W−1
 * (32 bytes each, concatenated); `tile/entries/<N>[.p/<W>]` is those leaves' entries as an entry
 * bundle. A tile the committed tree does not hold yet is 404. A mirror's are upstream's (UpstreamLog).
 */
@Injectable()
export class LogTiles {
  constructor(
    private readonly repository: TransparencyRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly upstream: UpstreamLog,
  ) {}

  /** `segments`: the path after /log/ (`tile/...`), as the router split it. */
  async tile(segments: string | readonly string[]): Promise<TileAnswer> {
    const path = `tile/${typeof segments === 'string' ? segments : segments.join('/')}`;
    let tile: ReturnType<typeof parseTilePath>;
    try {
      tile = parseTilePath(path);
    } catch {
      throw badRequest('validation-failed', 'not a tile path', [
        { path: '/path', message: 'path: must be a C2SP tlog-tiles path, tile/<L>/<N>[.p/<W>] or tile/entries/<N>[.p/<W>]' },
      ]);
    }
    if (this.config.mirrorOf) return this.upstream.tile(path, tile);
    const width = tile.width ?? TILE_WIDTH;
    const start = tile.index * TILE_WIDTH;
    const size = await this.repository.size();
    const level = tile.level === 'entries' ? 0 : tile.level * TILE_HEIGHT;
    // Complete subtrees at `level` in a tree of `size` leaves.
    const available = Math.floor(size / 2 ** level);
    if (start + width > available) throw notFound(`the log's head (size ${size}) does not hold ${path} yet`);
    const body =
      tile.level === 'entries'
        ? Buffer.from(encodeEntryBundle(await this.repository.findEntries(start, width)))
        : Buffer.from(await this.repository.levelHashes(level, start, start + width));
    return { body, headers: tile.width === null ? FULL_TILE_HEADERS : PARTIAL_TILE_HEADERS };
  }
}
