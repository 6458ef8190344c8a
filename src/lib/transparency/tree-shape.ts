/**
 * Which complete subtrees make up roots and proofs (RFC 9162 2.1.2-2.1.4), as node ids, so a store that
 * keeps every complete subtree can fetch a whole proof in one query. Arithmetic, not bit operators:
 * sizes go past 2^32.
 */

/** A complete subtree: 2^level leaves starting at leaf index * 2^level. Level 0 = a leaf hash. */
export interface NodeId {
  level: number;
  index: number;
}

function checkSize(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) throw new RangeError(`${name} must be a safe integer >= ${min}, got ${value}`);
}

/** Largest power of two strictly below n (n >= 2): the split point k of RFC 9162 2.1.1. */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** The complete subtrees covering leaves [start, end), largest first; start must be aligned as in every proof. */
function rangeNodes(start: number, end: number): NodeId[] {
  const nodes: NodeId[] = [];
  while (start < end) {
    let width = 1;
    while (width * 2 <= end - start && start % (width * 2) === 0) width *= 2;
    let level = 0;
    for (let w = width; w > 1; w /= 2) level++;
    nodes.push({ level, index: start / width });
    start += width;
  }
  return nodes;
}

/** The complete subtrees whose right-to-left fold is the root of a tree of `size` leaves (largest first). */
export function rootNodes(size: number): NodeId[] {
  checkSize('size', size, 0);
  return rangeNodes(0, size);
}

/** Complete subtrees a tree of `size` leaves gains when leaf `size - 1` is appended (level 0 first). */
export function completedBy(size: number): NodeId[] {
  checkSize('size', size, 1);
  const nodes: NodeId[] = [{ level: 0, index: size - 1 }];
  for (let node = nodes[0]!; node.index % 2 === 1; ) {
    node = { level: node.level + 1, index: (node.index - 1) / 2 };
    nodes.push(node);
  }
  return nodes;
}

/** RFC 9162 2.1.3.1 PATH(m, D[start:end]), each element as the subtrees of the range it hashes. */
function path(m: number, start: number, end: number): NodeId[][] {
  if (end - start <= 1) return [];
  const k = splitPoint(end - start);
  return m - start < k
    ? [...path(m, start, start + k), rangeNodes(start + k, end)]
    : [...path(m, start + k, end), rangeNodes(start, start + k)];
}

/** RFC 9162 2.1.4.1 SUBPROOF(m, D[start:end], b). */
function subproof(m: number, start: number, end: number, isOldRoot: boolean): NodeId[][] {
  const n = end - start;
  if (m === n) return isOldRoot ? [] : [rangeNodes(start, end)];
  const k = splitPoint(n);
  return m <= k
    ? [...subproof(m, start, start + k, isOldRoot), rangeNodes(start + k, end)]
    : [...subproof(m - k, start + k, end, false), rangeNodes(start, start + k)];
}

/** Each inclusion proof element as the complete subtrees (largest first) whose fold is that element. */
export function inclusionProofNodes(index: number, size: number): NodeId[][] {
  checkSize('size', size, 1);
  checkSize('index', index, 0);
  if (index >= size) throw new RangeError(`index ${index} is not below size ${size}`);
  return path(index, 0, size);
}

/** Each consistency proof element as complete subtrees; 0 < size1 <= size2 (a proof from the empty tree means nothing). */
export function consistencyProofNodes(size1: number, size2: number): NodeId[][] {
  checkSize('size1', size1, 1);
  checkSize('size2', size2, 1);
  if (size1 > size2) throw new RangeError(`size1 ${size1} exceeds size2 ${size2}`);
  return subproof(size1, 0, size2, true);
}
