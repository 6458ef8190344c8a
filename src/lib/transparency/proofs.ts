import { HASH_SIZE, hashesEqual, nodeHash, type Hash } from './hashing';

/** A proof that does not verify, or inputs that cannot describe one. */
export class ProofError extends Error {
  override readonly name = 'ProofError';
}

/** Longest proof for a tree of at most 2^53 leaves; anything longer is refused before hashing. */
const MAX_PROOF_LENGTH = 2 * 54;

function checkNumber(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) throw new ProofError(`${name} must be a safe integer >= ${min}`);
}

function checkHashes(name: string, hashes: unknown[]): void {
  for (const hash of hashes) {
    if (!(hash instanceof Uint8Array) || hash.length !== HASH_SIZE) throw new ProofError(`${name} must be ${HASH_SIZE}-byte hashes`);
  }
}

function checkProof(proof: unknown): asserts proof is Hash[] {
  if (!Array.isArray(proof) || proof.length > MAX_PROOF_LENGTH) throw new ProofError('proof must be a list of hashes');
  checkHashes('proof', proof);
}

const isOdd = (n: number): boolean => n % 2 === 1;
const half = (n: number): number => Math.floor(n / 2);

/** RFC 9162 2.1.3.2. Throws ProofError unless `leaf` is at `index` in the tree of `size` leaves with `root`. */
export function verifyInclusion(index: number, size: number, leaf: Hash, proof: Hash[], root: Hash): void {
  checkNumber('index', index, 0);
  checkNumber('size', size, 1);
  if (index >= size) throw new ProofError(`index ${index} is not below size ${size}`);
  checkHashes('leaf and root', [leaf, root]);
  checkProof(proof);
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) throw new ProofError('inclusion proof is too long');
    if (isOdd(fn) || fn === sn) {
      r = nodeHash(p, r);
      while (!isOdd(fn) && fn !== 0) [fn, sn] = [half(fn), half(sn)];
    } else {
      r = nodeHash(r, p);
    }
    [fn, sn] = [half(fn), half(sn)];
  }
  if (sn !== 0) throw new ProofError('inclusion proof is too short');
  if (!hashesEqual(r, root)) throw new ProofError('inclusion proof does not lead to the root');
}

const isPowerOfTwo = (n: number): boolean => {
  while (n > 1 && !isOdd(n)) n = half(n);
  return n === 1;
};

/** RFC 9162 2.1.4.2. Throws ProofError unless the tree of size2 with root2 extends the tree of size1 with root1. */
export function verifyConsistency(size1: number, size2: number, proof: Hash[], root1: Hash, root2: Hash): void {
  checkNumber('size1', size1, 1);
  checkNumber('size2', size2, 1);
  if (size1 > size2) throw new ProofError(`size1 ${size1} exceeds size2 ${size2}`);
  checkHashes('roots', [root1, root2]);
  checkProof(proof);
  if (size1 === size2) {
    if (proof.length !== 0) throw new ProofError('proof between equal sizes must be empty');
    if (!hashesEqual(root1, root2)) throw new ProofError('roots of the same size differ');
    return;
  }
  const path = isPowerOfTwo(size1) ? [root1, ...proof] : proof;
  if (path.length === 0) throw new ProofError('consistency proof is empty');
  let fn = size1 - 1;
  let sn = size2 - 1;
  while (isOdd(fn)) [fn, sn] = [half(fn), half(sn)];
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) throw new ProofError('consistency proof is too long');
    if (isOdd(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (!isOdd(fn) && fn !== 0) [fn, sn] = [half(fn), half(sn)];
    } else {
      sr = nodeHash(sr, c);
    }
    [fn, sn] = [half(fn), half(sn)];
  }
  if (sn !== 0) throw new ProofError('consistency proof is too short');
  if (!hashesEqual(fr, root1)) throw new ProofError('consistency proof does not lead to the first root');
  if (!hashesEqual(sr, root2)) throw new ProofError('consistency proof does not lead to the second root');
}
