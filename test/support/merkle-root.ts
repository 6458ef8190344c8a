import { EMPTY_ROOT, type Hash, nodeHash } from '../../src/lib/transparency';

/** RFC 9162 2.1.1, straight from the definition (leaf hashes in): the reference served trees are checked against. */
export function merkleRoot(leaves: readonly Hash[]): Hash {
  if (leaves.length === 0) return EMPTY_ROOT;
  if (leaves.length === 1) return leaves[0]!;
  let split = 1;
  while (split * 2 < leaves.length) split *= 2;
  return nodeHash(merkleRoot(leaves.slice(0, split)), merkleRoot(leaves.slice(split)));
}
