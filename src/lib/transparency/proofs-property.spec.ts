/**
 * Properties over random trees: every proof built from the tree's nodes (inclusionProofNodes /
 * consistencyProofNodes + foldSubtrees) verifies, and any change to what it vouches for does not.
 */
import fc from 'fast-check';
import { foldSubtrees, leafHash, nodeHash, type Hash } from './hashing';
import { ProofError, verifyConsistency, verifyInclusion } from './proofs';
import { completedBy, consistencyProofNodes, inclusionProofNodes, rootNodes, type NodeId } from './tree-shape';

/** RFC 9162 2.1.1 MTH, written the naive recursive way. */
function naiveRoot(leaves: Hash[]): Hash {
  if (leaves.length === 1) return leaves[0]!;
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return nodeHash(naiveRoot(leaves.slice(0, k)), naiveRoot(leaves.slice(k)));
}

/** An in-memory store of every complete subtree, filled the way the server fills its table. */
function buildTree(size: number): { leaves: Hash[]; node: (id: NodeId) => Hash } {
  const nodes = new Map<string, Hash>();
  const leaves: Hash[] = [];
  for (let n = 1; n <= size; n++) {
    const leaf = leafHash(new TextEncoder().encode(`entry ${n - 1}`));
    leaves.push(leaf);
    for (const { level, index } of completedBy(n)) {
      nodes.set(
        `${level}/${index}`,
        level === 0 ? leaf : nodeHash(nodes.get(`${level - 1}/${2 * index}`)!, nodes.get(`${level - 1}/${2 * index + 1}`)!),
      );
    }
  }
  const node = (id: NodeId): Hash => {
    const hash = nodes.get(`${id.level}/${id.index}`);
    if (!hash) throw new Error(`node ${id.level}/${id.index} was never completed`);
    return hash;
  };
  return { leaves, node };
}

const MAX_SIZE = 300;
const tree = buildTree(MAX_SIZE);
const rootOf = (size: number): Hash => foldSubtrees(rootNodes(size).map(tree.node));
const proofFrom = (elements: NodeId[][]): Hash[] => elements.map((element) => foldSubtrees(element.map(tree.node)));
const flipped = (hash: Hash, bit: number): Hash => {
  const copy = Uint8Array.from(hash);
  copy[bit >> 3]! ^= 1 << (bit & 7);
  return copy;
};

const sizeAndIndex = fc
  .integer({ min: 1, max: MAX_SIZE })
  .chain((size) => fc.tuple(fc.constant(size), fc.integer({ min: 0, max: size - 1 })));
const twoSizes = fc.integer({ min: 1, max: MAX_SIZE }).chain((size2) => fc.tuple(fc.integer({ min: 1, max: size2 }), fc.constant(size2)));
const bit = fc.integer({ min: 0, max: 255 });

describe('tree shape', () => {
  it('rootNodes folded and completedBy-built nodes agree with the naive MTH', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_SIZE }), (size) => {
        expect(rootOf(size)).toEqual(naiveRoot(tree.leaves.slice(0, size)));
      }),
    );
  });

  it('rootNodes of a size are its binary digits, largest first, and cover exactly the leaves', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (size) => {
        let covered = 0;
        for (const { level, index } of rootNodes(size)) {
          expect(index * 2 ** level).toBe(covered);
          covered += 2 ** level;
        }
        expect(covered).toBe(size);
      }),
    );
  });
});

describe('proof shapes at any size (bit operators below 2^31, arithmetic above)', () => {
  const hugeSizeAndIndex = fc
    .integer({ min: 1, max: Number.MAX_SAFE_INTEGER })
    .chain((size) => fc.tuple(fc.constant(size), fc.integer({ min: 0, max: size - 1 })));
  const hugeSizes = fc
    .integer({ min: 1, max: Number.MAX_SAFE_INTEGER })
    .chain((size2) => fc.tuple(fc.integer({ min: 1, max: size2 }), fc.constant(size2)));
  // RFC 9162 2.1.3.1 and 2.1.4.1 as written: recursion, and k found by doubling.
  const split = (n: number) => {
    let k = 1;
    while (k * 2 < n) k *= 2;
    return k;
  };
  const range = (start: number, end: number): [number, number] => [start, end];
  const path = (m: number, start: number, end: number): [number, number][] => {
    if (end - start <= 1) return [];
    const k = split(end - start);
    return m - start < k ? [...path(m, start, start + k), range(start + k, end)] : [...path(m, start + k, end), range(start, start + k)];
  };
  const subproof = (m: number, start: number, end: number, isOldRoot: boolean): [number, number][] => {
    const k = split(end - start);
    if (m === end - start) return isOldRoot ? [] : [range(start, end)];
    return m <= k
      ? [...subproof(m, start, start + k, isOldRoot), range(start + k, end)]
      : [...subproof(m - k, start + k, end, false), range(start, start + k)];
  };
  /** The leaves [start, end) an element's subtrees cover together (they are adjacent, largest first). */
  const covered = (element: NodeId[]): [number, number] => [
    element[0]!.index * 2 ** element[0]!.level,
    element.reduce((end, { level }) => end + 2 ** level, element[0]!.index * 2 ** element[0]!.level),
  ];

  it('inclusion proofs cover the ranges RFC 9162 names, in its order', () => {
    fc.assert(
      fc.property(hugeSizeAndIndex, ([size, index]) => {
        expect(inclusionProofNodes(index, size).map(covered)).toEqual(path(index, 0, size));
      }),
    );
  });

  it('consistency proofs cover the ranges RFC 9162 names, in its order', () => {
    fc.assert(
      fc.property(hugeSizes, ([size1, size2]) => {
        expect(consistencyProofNodes(size1, size2).map(covered)).toEqual(subproof(size1, 0, size2, true));
      }),
    );
  });
});

describe('inclusion proofs', () => {
  it('every generated proof verifies', () => {
    fc.assert(
      fc.property(sizeAndIndex, ([size, index]) => {
        expect(() =>
          verifyInclusion(index, size, tree.leaves[index]!, proofFrom(inclusionProofNodes(index, size)), rootOf(size)),
        ).not.toThrow();
      }),
    );
  });

  it('an altered leaf, proof element, root, index or size (with its own root) fails', () => {
    fc.assert(
      fc.property(sizeAndIndex, bit, fc.nat(), fc.integer({ min: 1, max: MAX_SIZE }), ([size, index], b, pick, other) => {
        const leaf = tree.leaves[index]!;
        const proof = proofFrom(inclusionProofNodes(index, size));
        const root = rootOf(size);
        const fails = (f: () => void): void => expect(f).toThrow(ProofError);
        fails(() => verifyInclusion(index, size, flipped(leaf, b), proof, root));
        fails(() => verifyInclusion(index, size, leaf, proof, flipped(root, b)));
        if (proof.length > 0) {
          const at = pick % proof.length;
          fails(() =>
            verifyInclusion(
              index,
              size,
              leaf,
              proof.map((h, i) => (i === at ? flipped(h, b) : h)),
              root,
            ),
          );
          fails(() => verifyInclusion(index, size, leaf, proof.slice(1), root));
        }
        fails(() => verifyInclusion(index, size, leaf, [...proof, root], root));
        const otherIndex = other % size;
        if (otherIndex !== index) fails(() => verifyInclusion(otherIndex, size, leaf, proof, root));
        // A root does not commit to its size (the signed checkpoint does), so a changed size is checked
        // against that size's own root: the proof must not carry the leaf into another tree.
        if (other !== size && index < other) fails(() => verifyInclusion(index, other, leaf, proof, rootOf(other)));
      }),
    );
  });
});

describe('consistency proofs', () => {
  it('every generated proof verifies', () => {
    fc.assert(
      fc.property(twoSizes, ([size1, size2]) => {
        expect(() =>
          verifyConsistency(size1, size2, proofFrom(consistencyProofNodes(size1, size2)), rootOf(size1), rootOf(size2)),
        ).not.toThrow();
      }),
    );
  });

  it('an altered proof element, either root or either size (with its own root) fails', () => {
    fc.assert(
      fc.property(twoSizes, bit, fc.nat(), fc.integer({ min: 1, max: MAX_SIZE }), ([size1, size2], b, pick, other) => {
        const proof = proofFrom(consistencyProofNodes(size1, size2));
        const [root1, root2] = [rootOf(size1), rootOf(size2)];
        const fails = (f: () => void): void => expect(f).toThrow(ProofError);
        fails(() => verifyConsistency(size1, size2, proof, flipped(root1, b), root2));
        fails(() => verifyConsistency(size1, size2, proof, root1, flipped(root2, b)));
        if (proof.length > 0) {
          const at = pick % proof.length;
          fails(() =>
            verifyConsistency(
              size1,
              size2,
              proof.map((h, i) => (i === at ? flipped(h, b) : h)),
              root1,
              root2,
            ),
          );
          fails(() => verifyConsistency(size1, size2, proof.slice(0, -1), root1, root2));
        }
        fails(() => verifyConsistency(size1, size2, [...proof, root2], root1, root2));
        // As for inclusion: a changed size is checked against the root of a tree of that size.
        if (other !== size1 && other <= size2) fails(() => verifyConsistency(other, size2, proof, rootOf(other), root2));
        if (other !== size2 && other >= size1) fails(() => verifyConsistency(size1, other, proof, root1, rootOf(other)));
      }),
    );
  });
});
