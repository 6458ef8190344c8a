import type { CatalogueItemDto } from './dto/catalogue.dto';

/** One held item's map entry, id and string headers beside its JSON text, in bytes: it matches the heap growth measured holding the 100k seed (~960 B an item). */
const ENTRY_OVERHEAD_BYTES = 430;

/**
 * The same text as one flat string. V8's JSON.stringify answers a text of more than a few dozen
 * characters as a rope (a tree of the pieces it wrote), and Array.prototype.join copies a rope
 * piece by piece every time without flattening it: a page of 25 held items cost 21 µs to join as
 * ropes and 7 µs flat. Reading a character flattens the string in place, once.
 */
function flattened(text: string): string {
  text.charCodeAt(0);
  return text;
}

/**
 * The catalogue's list items in this instance's memory, so a page reads only its change log: a
 * page of twenty full rows cost the server ~460 µs of row parsing and the database ~120 µs more
 * than that, and reading only their download counts still cost the database ~300 µs a page (the
 * counts log changes too, since CatalogueChangeDownloads1795781000000).
 *
 * Each item is held as its JSON text, and a page is written from those texts: parsing twenty
 * items and writing the page again was a fifth of a page's server time. Held as objects, the
 * 100k seed's items were some 1.5 million small heap objects that every full garbage collection
 * had to mark: reads that never touch them (a plugin's page) lost 10-20% of their throughput. As
 * text they are 100k strings, which a collection does not look inside.
 *
 * Freshness is the change log's: every write to a column an item shows logs a change (the
 * catalogue_change trigger), and whoever applies a change `forget`s the plugin's item. A read that
 * was in flight while something was forgotten may hold an older row, so `keep` stores a read's
 * items only when nothing was forgotten since the read began (`epoch`). Framework-free.
 */
export class CatalogueItems {
  private readonly items = new Map<string, string>();
  private forgotten = 0;
  private bytes = 0;

  /** Changes whenever an item is forgotten; `keep` takes the value read before the read began. */
  get epoch(): number {
    return this.forgotten;
  }

  get size(): number {
    return this.items.size;
  }

  /** An estimate of the memory held, for the footprint metric. */
  approximateBytes(): number {
    return this.bytes;
  }

  /** The JSON texts of the held items of `ids` in that order, or null when any is not held. */
  texts(ids: readonly string[]): string[] | null {
    const texts: string[] = [];
    for (const id of ids) {
      const text = this.items.get(id);
      if (text === undefined) return null;
      texts.push(text);
    }
    return texts;
  }

  /** Keeps items read as of `epoch`, unless an item was forgotten since (the read may be older than that change). */
  keep(items: readonly CatalogueItemDto[], epoch: number): void {
    if (epoch !== this.forgotten) return;
    for (const item of items) this.put(item);
  }

  forget(id: string): void {
    this.forgotten++;
    const text = this.items.get(id);
    if (text === undefined) return;
    this.bytes -= ENTRY_OVERHEAD_BYTES + text.length;
    this.items.delete(id);
  }

  private put(item: CatalogueItemDto): void {
    const previous = this.items.get(item.id);
    if (previous !== undefined) this.bytes -= ENTRY_OVERHEAD_BYTES + previous.length;
    const text = flattened(JSON.stringify(item));
    this.items.set(item.id, text);
    this.bytes += ENTRY_OVERHEAD_BYTES + text.length;
  }
}
