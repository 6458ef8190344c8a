import { bitWords, clearBit, setBit } from './bitset';
import type { SearchDocument } from './types';

export function toMillis(value: Date | number | null): number | null {
  return value === null || value === undefined ? null : typeof value === 'number' ? value : value.getTime();
}

/** Whether the document sinks below the others. */
export function isDeprecated(doc: SearchDocument): boolean {
  return doc.deprecatedAt !== null && doc.deprecatedAt !== undefined;
}

/**
 * The per-document side of the index: internal ids (dense, reused after a removal) and the sort
 * keys in typed arrays, plus each document's term entries (`termId * 4 + field`) in one arena so
 * that a removal visits exactly the postings the document added.
 */
export class DocumentTable {
  capacity = 0;
  /** Ids below this have been handed out at least once. */
  highWater = 0;
  live = 0;
  readonly pluginIds: Array<string | undefined> = [];
  readonly slugs: string[] = [];
  /** Lowercased names: the name sort's key and the exact-name match. */
  readonly names: string[] = [];
  verifiedNull = new Uint8Array(0);
  /** 1 for a deprecated document: the outermost key of every order. */
  deprecated = new Uint8Array(0);
  featured = new Uint8Array(0);
  nameWords = new Uint8Array(0);
  /** The lowercased name's length (capped at 255): most names are ruled out of an exact match without reading the string. */
  nameLength = new Uint8Array(0);
  /** Latest release time in ms, -Infinity when none (sorts last, as NULLS LAST). */
  released = new Float64Array(0);
  /** Bitsets: verified documents; and by h = 1..8, documents whose name has at most h words (h words in the name cover it). */
  verifiedBits: Int32Array = new Int32Array(0);
  /** Bitset: deprecated documents. */
  deprecatedBits: Int32Array = new Int32Array(0);
  nameWordsAtMost: Int32Array[] = Array.from({ length: 8 }, () => new Int32Array(0));
  created = new Float64Array(0);
  /** Where each document's term entries start in `arena`, and how many there are (read them before the next add). */
  forwardStart = new Int32Array(0);
  forwardLength = new Int32Array(0);
  arena = new Int32Array(4096);
  private arenaEnd = 0;
  private arenaGarbage = 0;
  private readonly free: number[] = [];
  private readonly byPluginId = new Map<string, number>();

  idOf(pluginId: string): number | undefined {
    return this.byPluginId.get(pluginId);
  }

  /** Takes an internal id for `doc` and records its keys and terms. */
  add(doc: SearchDocument, nameWords: number, entries: ArrayLike<number>, entryCount: number): number {
    const id = this.free.length ? (this.free.pop() as number) : this.highWater++;
    if (id >= this.capacity) this.grow(id + 1);
    this.byPluginId.set(doc.id, id);
    this.pluginIds[id] = doc.id;
    this.slugs[id] = doc.slug;
    const lower = doc.name.toLowerCase();
    this.names[id] = lower === doc.slug ? doc.slug : lower;
    this.verifiedNull[id] = doc.verifiedAt === null || doc.verifiedAt === undefined ? 1 : 0;
    this.featured[id] = doc.featured ? 1 : 0;
    this.deprecated[id] = isDeprecated(doc) ? 1 : 0;
    if (this.deprecated[id]) setBit(this.deprecatedBits, id);
    else clearBit(this.deprecatedBits, id);
    this.nameWords[id] = Math.min(nameWords, 255);
    this.nameLength[id] = Math.min(lower.length, 255);
    this.released[id] = toMillis(doc.latestReleaseAt) ?? -Infinity;
    this.created[id] = toMillis(doc.createdAt) ?? -Infinity;
    if (this.verifiedNull[id]) clearBit(this.verifiedBits, id);
    else setBit(this.verifiedBits, id);
    for (let h = 1; h <= 8; h++) {
      if (nameWords <= h) setBit(this.nameWordsAtMost[h - 1], id);
      else clearBit(this.nameWordsAtMost[h - 1], id);
    }
    this.reserveArena(entryCount);
    for (let i = 0; i < entryCount; i++) this.arena[this.arenaEnd + i] = entries[i];
    this.forwardStart[id] = this.arenaEnd;
    this.forwardLength[id] = entryCount;
    this.arenaEnd += entryCount;
    this.live++;
    return id;
  }

  /** The document's term entries (a view: read it before the next add). */
  entries(id: number): Int32Array {
    return this.arena.subarray(this.forwardStart[id], this.forwardStart[id] + this.forwardLength[id]);
  }

  remove(id: number): void {
    this.byPluginId.delete(this.pluginIds[id] as string);
    this.pluginIds[id] = undefined;
    clearBit(this.verifiedBits, id);
    clearBit(this.deprecatedBits, id);
    for (const bits of this.nameWordsAtMost) clearBit(bits, id);
    this.arenaGarbage += this.forwardLength[id];
    this.forwardLength[id] = 0;
    this.free.push(id);
    this.live--;
  }

  /** Term entries held for live documents: `/ live` is the mean a document has. */
  get liveEntries(): number {
    return this.arenaEnd - this.arenaGarbage;
  }

  isLive(id: number): boolean {
    return this.pluginIds[id] !== undefined;
  }

  /** Gives back the arena's growth slack after a bulk build. */
  trim(): void {
    if (this.arena.length > this.arenaEnd + 4096) this.arena = this.arena.slice(0, this.arenaEnd + 1024);
  }

  approximateBytes(): number {
    const typed = [
      this.verifiedNull,
      this.deprecated,
      this.deprecatedBits,
      this.featured,
      this.nameWords,
      this.nameLength,
      this.verifiedBits,
      ...this.nameWordsAtMost,
      this.released,
      this.created,
      this.forwardStart,
      this.forwardLength,
      this.arena,
    ];
    let bytes = typed.reduce((sum, array) => sum + array.byteLength, 0) + this.free.length * 8;
    for (let id = 0; id < this.highWater; id++) {
      const pluginId = this.pluginIds[id];
      // Three array slots, the id's Map entry, and the strings (a name equal to its slug is shared).
      bytes += 24 + (pluginId === undefined ? 0 : 40 + 24 + pluginId.length + 24 + this.slugs[id].length);
      if (pluginId !== undefined && this.names[id] !== this.slugs[id]) bytes += 24 + this.names[id].length;
    }
    return bytes;
  }

  private grow(needed: number): void {
    const capacity = Math.max(needed, Math.ceil(this.capacity * 1.5), 64);
    const resize = <T extends Uint8Array | Int32Array | Float64Array>(array: T): T => {
      const bigger = new (array.constructor as new (length: number) => T)(capacity);
      bigger.set(array);
      return bigger;
    };
    this.verifiedNull = resize(this.verifiedNull);
    this.featured = resize(this.featured);
    this.deprecated = resize(this.deprecated);
    this.nameWords = resize(this.nameWords);
    this.nameLength = resize(this.nameLength);
    this.released = resize(this.released);
    this.created = resize(this.created);
    this.forwardStart = resize(this.forwardStart);
    this.forwardLength = resize(this.forwardLength);
    const words = bitWords(capacity);
    const widen = (bits: Int32Array): Int32Array => {
      const wider = new Int32Array(words);
      wider.set(bits);
      return wider;
    };
    this.verifiedBits = widen(this.verifiedBits);
    this.deprecatedBits = widen(this.deprecatedBits);
    this.nameWordsAtMost = this.nameWordsAtMost.map(widen);
    this.capacity = capacity;
  }

  /** Room for `count` more entries; a compaction first when half the arena is garbage. */
  private reserveArena(count: number): void {
    if (this.arenaGarbage > 4096 && this.arenaGarbage * 2 > this.arenaEnd) {
      const live = this.arenaEnd - this.arenaGarbage;
      const compact = new Int32Array(Math.max(4096, Math.ceil((live + count) * 1.25)));
      let end = 0;
      for (let id = 0; id < this.highWater; id++) {
        const length = this.forwardLength[id];
        if (length === 0) continue;
        compact.set(this.arena.subarray(this.forwardStart[id], this.forwardStart[id] + length), end);
        this.forwardStart[id] = end;
        end += length;
      }
      this.arena = compact;
      this.arenaEnd = end;
      this.arenaGarbage = 0;
    }
    if (this.arenaEnd + count > this.arena.length) {
      const bigger = new Int32Array(Math.ceil((this.arenaEnd + count) * 1.5));
      bigger.set(this.arena.subarray(0, this.arenaEnd));
      this.arena = bigger;
    }
  }
}
