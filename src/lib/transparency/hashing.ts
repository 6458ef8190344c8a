import { createHash } from 'node:crypto';

/** A SHA-256 digest (32 bytes). */
export type Hash = Uint8Array;

export const HASH_SIZE = 32;

function sha256(...parts: Uint8Array[]): Hash {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return new Uint8Array(hash.digest());
}

const LEAF_PREFIX = Uint8Array.of(0x00);
const NODE_PREFIX = Uint8Array.of(0x01);

/** RFC 9162 2.1.1: the prefixes keep a leaf from ever hashing like an interior node (second preimages). */
export function leafHash(entry: Uint8Array): Hash {
  return sha256(LEAF_PREFIX, entry);
}

export function nodeHash(left: Hash, right: Hash): Hash {
  return sha256(NODE_PREFIX, left, right);
}

/** MTH({}) = SHA-256 of the empty string. */
export const EMPTY_ROOT: Hash = sha256();

/** Right-to-left fold of complete subtree hashes given largest first: the hash of the range they cover. */
export function foldSubtrees(hashes: Hash[]): Hash {
  if (hashes.length === 0) return EMPTY_ROOT;
  let folded = hashes[hashes.length - 1]!;
  for (let i = hashes.length - 2; i >= 0; i--) folded = nodeHash(hashes[i]!, folded);
  return folded;
}

export function hashesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
