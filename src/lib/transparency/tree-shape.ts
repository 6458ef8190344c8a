/**
 * Which complete subtrees make up roots and proofs (RFC 9162 2.1.2-2.1.4), as node ids, so a store that
 * keeps every complete subtree can fetch a whole proof in one query. Sizes go past 2^32: bit
 * operators only where a value is known to be below 2^31, arithmetic elsewhere.
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
  // Bit operators only below 2^31 (n - 1 fits a uint32's top bit).
  if (n <= 0x80000000) return (0x80000000 >>> Math.clz32(n - 1)) >>> 0;
  let k = 0x80000000;
  while (k * 2 < n) k *= 2;
  return k;
}

/** The level of a subtree of `width` leaves when width is a power of two, else -1. */
function levelOf(width: number): number {
  if (width <= 0x80000000) return (width & (width - 1)) === 0 ? 31 - Math.clz32(width) : -1;
  let level = 31;
  for (let w = 0x80000000; w < width; w *= 2) level++;
  return 2 ** level === width ? level : -1;
}

/** The complete subtrees covering leaves [start, end), largest first; start must be aligned as in every proof. */
function rangeNodes(start: number, end: number): NodeId[] {
  // Most ranges of a proof are one complete subtree: a proof asks ~log2(size) of them.
  const whole = levelOf(end - start);
  if (whole >= 0 && start % (end - start) === 0) return [{ level: whole, index: start / (end - start) }];
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
  for (let node = nodes[0]!; node.index % 2 === 1;) {
    node = { level: node.level + 1, index: (node.index - 1) / 2 };
    nodes.push(node);
  }
  return nodes;
}

/**
 * RFC 9162 2.1.3.1 PATH(m, D[start:end]), each element as the subtrees of the range it hashes.
 * The RFC recurses and appends each level's element after the deeper ones: walked top-down here,
 * then reversed.
 */
function path(m: number, start: number, end: number): NodeId[][] {
  const elements: NodeId[][] = [];
  while (end - start > 1) {
    const k = splitPoint(end - start);
    if (m - start < k) {
      elements.push(rangeNodes(start + k, end));
      end = start + k;
    } else {
      elements.push(rangeNodes(start, start + k));
      start += k;
    }
  }
  return elements.reverse();
}

/** RFC 9162 2.1.4.1 SUBPROOF(m, D[start:end], b), walked top-down as `path` is. */
function subproof(m: number, start: number, end: number, isOldRoot: boolean): NodeId[][] {
  const elements: NodeId[][] = [];
  for (;;) {
    const n = end - start;
    if (m === n) {
      if (!isOldRoot) elements.push(rangeNodes(start, end));
      return elements.reverse();
    }
    const k = splitPoint(n);
    if (m <= k) {
      elements.push(rangeNodes(start + k, end));
      end = start + k;
    } else {
      elements.push(rangeNodes(start, start + k));
      m -= k;
      start += k;
      isOldRoot = false;
    }
  }
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
