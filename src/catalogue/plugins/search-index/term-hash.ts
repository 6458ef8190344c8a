/** FNV-1a over the UTF-16 code units `text[start..end)`. */
export function hashRange(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash | 0;
}

function equalsRange(term: string, text: string, start: number, end: number): boolean {
  if (term.length !== end - start) return false;
  for (let i = 0; i < term.length; i++) if (term.charCodeAt(i) !== text.charCodeAt(start + i)) return false;
  return true;
}

/**
 * Term string -> term id, looked up by a range of a larger text so that the build makes no
 * string for a word it already knows: open addressing over two typed arrays (~12 bytes a term,
 * against ~50 for a Map entry).
 */
export class TermHash {
  /** Term id + 1 per slot; 0 marks an empty slot. */
  private slots = new Int32Array(4096);
  private hashes = new Int32Array(1024);
  private size = 0;

  constructor(private readonly strings: readonly string[]) {}

  /** The id of the term equal to `text[start..end)` whose hash is `hash`, or -1. */
  find(text: string, start: number, end: number, hash: number): number {
    const { slots, hashes, strings } = this;
    const mask = slots.length - 1;
    for (let slot = hash & mask; slots[slot] !== 0; slot = (slot + 1) & mask) {
      const id = slots[slot] - 1;
      if (hashes[id] === hash && equalsRange(strings[id], text, start, end)) return id;
    }
    return -1;
  }

  /** Records term `id` (already in `strings`) under `hash`. */
  insert(id: number, hash: number): void {
    if (id >= this.hashes.length) {
      const hashes = new Int32Array(Math.max(id + 1, this.hashes.length * 2));
      hashes.set(this.hashes);
      this.hashes = hashes;
    }
    this.hashes[id] = hash;
    if ((this.size + 1) * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    this.place(id, hash);
    this.size++;
  }

  get byteLength(): number {
    return this.slots.byteLength + this.hashes.byteLength;
  }

  private place(id: number, hash: number): void {
    const mask = this.slots.length - 1;
    let slot = hash & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = id + 1;
  }

  private rehash(capacity: number): void {
    const old = this.slots;
    this.slots = new Int32Array(capacity);
    for (let slot = 0; slot < old.length; slot++) if (old[slot] !== 0) this.place(old[slot] - 1, this.hashes[old[slot] - 1]);
  }
}
