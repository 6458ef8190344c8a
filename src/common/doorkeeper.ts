/** Bits in the response cache's table: 2^20, 128 KiB. */
const DEFAULT_TABLE_BITS = 1 << 20;

/** FNV-1a over the key's UTF-16 code units, 32 bits. */
function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * The doorkeeper of TinyLFU (Einziger, Friedman, Manes 2017): a key is admitted to the cache on
 * its second ask, not its first. Most catalogue misses are asked once (a search as it is typed, a
 * random deep page); storing each of them filled a cache of 10,000 answers (16 MiB embedded)
 * with bodies nobody asks for again, pushing out the ones people do. One bit a key (a false
 * "seen" only stores an answer early); the table is cleared whenever an eighth of it is set, so
 * what is remembered is recent.
 */
export class Doorkeeper {
  private readonly table: Uint32Array;
  private readonly mask: number;
  /** Forgets everything once this many keys are marked, so a table never fills (about 1 in 8 bits set). */
  private readonly marksBeforeReset: number;
  private marks = 0;

  /** `tableBits`: a power of two, at least 32; an eighth of it is about how many keys are remembered. */
  constructor(tableBits = DEFAULT_TABLE_BITS) {
    if (tableBits < 32 || (tableBits & (tableBits - 1)) !== 0)
      throw new Error(`doorkeeper table bits must be a power of two >= 32, not ${tableBits}`);
    this.table = new Uint32Array(tableBits / 32);
    this.mask = tableBits - 1;
    this.marksBeforeReset = tableBits / 8;
  }

  /** True when `key` was asked before (since the last reset); marks it either way. */
  admits(key: string): boolean {
    const bit = hashOf(key) & this.mask;
    const word = bit >>> 5;
    const mask = 1 << (bit & 31);
    if ((this.table[word] & mask) !== 0) return true;
    if (this.marks >= this.marksBeforeReset) {
      this.table.fill(0);
      this.marks = 0;
    }
    this.table[word] |= mask;
    this.marks += 1;
    return false;
  }
}
