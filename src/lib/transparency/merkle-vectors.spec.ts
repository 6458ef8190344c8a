/**
 * Known answers from transparency-dev/merkle (Apache-2.0): the RFC 6962 hasher vectors, the reference
 * tree of eight leaves, the proof-shape tables of proof/proof_test.go and every inclusion and
 * consistency probe of testdata/.
 */
import { EMPTY_ROOT, foldSubtrees, leafHash, nodeHash, type Hash } from './hashing';
import { verifyConsistency, verifyInclusion, ProofError } from './proofs';
import { completedBy, consistencyProofNodes, inclusionProofNodes, rootNodes, type NodeId } from './tree-shape';
import { b64, hex, readVectors, toHex } from './testdata/vectors';

interface ShapeRow {
  ids?: [number, number][];
  rehash?: [number, number];
  wantErr?: boolean;
}
interface Reference {
  hasher: {
    emptyRoot: string;
    emptyLeaf: string;
    leaf: { input: string; hash: string };
    node: { left: string; right: string; hash: string };
  };
  leafInputs: string[];
  nodeHashes: string[][];
  rootHashes: string[];
  inclusion: (ShapeRow & { size: number; index: number })[];
  consistency: (ShapeRow & { size1: number; size2: number })[];
}
interface Probes<T> {
  commit: string;
  probes: Record<string, T & { desc: string; wantErr: boolean }>;
}
interface InclusionProbe {
  leafIdx: number;
  treeSize: number;
  root: string;
  leafHash: string;
  proof: string[] | null;
}
interface ConsistencyProbe {
  size1: number;
  size2: number;
  root1: string;
  root2: string;
  proof: string[] | null;
}

const reference = readVectors<Reference>('merkle-reference.json');
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Go lists a folded range smallest first; ours lists each element's subtrees largest first. */
function expectedElements(row: ShapeRow): NodeId[][] {
  const ids = (row.ids ?? []).map(([level, index]) => ({ level, index }));
  const [begin, end] = row.rehash ?? [ids.length, ids.length];
  return [
    ...ids.slice(0, begin).map((id) => [id]),
    ...(begin < end ? [ids.slice(begin, end).reverse()] : []),
    ...ids.slice(end).map((id) => [id]),
  ];
}

describe('RFC 6962 hashing (rfc6962/rfc6962_test.go)', () => {
  it('gives the published empty root, leaf and node hashes', () => {
    expect(toHex(EMPTY_ROOT)).toBe(reference.hasher.emptyRoot);
    expect(toHex(leafHash(new Uint8Array()))).toBe(reference.hasher.emptyLeaf);
    expect(toHex(leafHash(utf8(reference.hasher.leaf.input)))).toBe(reference.hasher.leaf.hash);
    expect(toHex(nodeHash(utf8(reference.hasher.node.left), utf8(reference.hasher.node.right)))).toBe(reference.hasher.node.hash);
  });
});

describe('the reference tree (testonly/constants.go)', () => {
  const leaves = reference.leafInputs.map((input) => leafHash(hex(input)));
  const nodeHashOf = (id: NodeId): Hash => hex(reference.nodeHashes[id.level]![id.index]!);

  it('every leaf and interior node hash matches', () => {
    const built: Hash[][] = [leaves];
    while (built[built.length - 1]!.length > 1) {
      const below = built[built.length - 1]!;
      built.push(Array.from({ length: below.length / 2 }, (_, i) => nodeHash(below[2 * i]!, below[2 * i + 1]!)));
    }
    expect(built.map((level) => level.map(toHex))).toEqual(reference.nodeHashes);
  });

  it('rootNodes folded gives every published root, sizes 0 to 8', () => {
    reference.rootHashes.forEach((root, size) => {
      expect(toHex(foldSubtrees(rootNodes(size).map(nodeHashOf)))).toBe(root);
    });
  });

  it('completedBy names the nodes that exist once each leaf is appended', () => {
    const seen = new Set<string>();
    for (let size = 1; size <= 8; size++) completedBy(size).forEach(({ level, index }) => seen.add(`${level}/${index}`));
    expect([...seen].sort()).toEqual(reference.nodeHashes.flatMap((level, l) => level.map((_, i) => `${l}/${i}`)).sort());
  });
});

describe('proof shapes (proof/proof_test.go TestInclusion, TestConsistency)', () => {
  it.each(reference.inclusion.map((row) => [`${row.size}:${row.index}`, row] as const))('inclusion %s', (_, row) => {
    if (row.wantErr) expect(() => inclusionProofNodes(row.index, row.size)).toThrow(RangeError);
    else expect(inclusionProofNodes(row.index, row.size)).toEqual(expectedElements(row));
  });

  it.each(reference.consistency.map((row) => [`${row.size1}:${row.size2}`, row] as const))('consistency %s', (_, row) => {
    if (row.wantErr) expect(() => consistencyProofNodes(row.size1, row.size2)).toThrow(RangeError);
    else expect(consistencyProofNodes(row.size1, row.size2)).toEqual(expectedElements(row));
  });
});

const proofOf = (proof: string[] | null): Hash[] => (proof ?? []).map(b64);

describe('inclusion probes (testdata/inclusion)', () => {
  const { probes } = readVectors<Probes<InclusionProbe>>('merkle-inclusion.json');
  it.each(Object.entries(probes))('%s', (_, probe) => {
    const verify = (): void => verifyInclusion(probe.leafIdx, probe.treeSize, b64(probe.leafHash), proofOf(probe.proof), b64(probe.root));
    if (probe.wantErr) expect(verify).toThrow(ProofError);
    else expect(verify).not.toThrow();
  });
});

/**
 * The one probe we answer differently: Go compares two equal "roots" of 12 bytes and accepts them;
 * we refuse any root that is not a 32-byte SHA-256 hash before comparing anything.
 */
const STRICTER_THAN_GO = new Set(['additional/sizes-are-equal-one-and-proof-is-empty']);

describe('consistency probes (testdata/consistency)', () => {
  const { probes } = readVectors<Probes<ConsistencyProbe>>('merkle-consistency.json');
  it.each(Object.entries(probes))('%s', (name, probe) => {
    const verify = (): void => verifyConsistency(probe.size1, probe.size2, proofOf(probe.proof), b64(probe.root1), b64(probe.root2));
    if (STRICTER_THAN_GO.has(name)) expect(verify).toThrow('roots must be 32-byte hashes');
    else if (probe.wantErr) expect(verify).toThrow(ProofError);
    else expect(verify).not.toThrow();
  });
});
