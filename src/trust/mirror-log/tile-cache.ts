/** Full tiles kept at most, whatever their size. */
export const CACHED_MAX_TILES = 2048;
/** Bytes of full tiles kept at most: a hash tile is 8 KiB, an entry tile of short entries about 60 KiB. */
export const CACHED_MAX_TILE_BYTES = 32 * 1024 * 1024;

/**
 * Upstream's full tiles, kept in process, least recently used first out. A full tile never
 * changes (tlog-tiles), so a copy read once serves every later reader of it; a partial tile is
 * never kept (a wider one replaces it as the log grows). Bounded by count and by bytes.
 */
export class TileCache {
  private readonly tiles = new Map<string, Buffer>();
  private bytes = 0;

  constructor(
    private readonly maxTiles = CACHED_MAX_TILES,
    private readonly maxBytes = CACHED_MAX_TILE_BYTES,
  ) {}

  get size(): number {
    return this.tiles.size;
  }

  get heldBytes(): number {
    return this.bytes;
  }

  get(path: string): Buffer | undefined {
    const tile = this.tiles.get(path);
    if (tile) {
      // Most recently used goes to the end: the Map's order is the eviction order.
      this.tiles.delete(path);
      this.tiles.set(path, tile);
    }
    return tile;
  }

  put(path: string, tile: Buffer): void {
    if (tile.length > this.maxBytes) return;
    const held = this.tiles.get(path);
    if (held) {
      this.tiles.delete(path);
      this.bytes -= held.length;
    }
    this.tiles.set(path, tile);
    this.bytes += tile.length;
    while (this.tiles.size > this.maxTiles || this.bytes > this.maxBytes) {
      const [oldest, evicted] = this.tiles.entries().next().value!;
      this.tiles.delete(oldest);
      this.bytes -= evicted.length;
    }
  }
}
