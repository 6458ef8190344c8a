import type { PoolClient, QueryResult } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import type { NodeId } from '../../lib/transparency';
import { preparedQuery } from '../../persistence/prepared-query';

/**
 * Transaction-scoped advisory lock over the log's tail: an append takes it, reads the size and
 * writes the leaf and its nodes, and holds it to commit, so indexes are consecutive and committed
 * in order (a reader never sees a gap). Every writer takes it last, after its other locks.
 */
export const TRANSPARENCY_LOG_LOCK = 7_244_151_031;

/** A node's hash as read back: keyed `level/index`. */
export type NodeHashes = Map<string, Uint8Array>;

export function nodeKey(node: NodeId): string {
  return `${node.level}/${node.index}`;
}

export interface NewLeaf {
  entry: Uint8Array;
  leafHash: Uint8Array;
  releaseId: string | null;
}

export interface StoredLeaf {
  index: number;
  entry: Uint8Array;
  leafHash: Uint8Array;
}

/** node-postgres and PGlite both give bytea as a Buffer/Uint8Array; a copy keeps it plain. */
function bytes(value: Uint8Array): Uint8Array {
  return new Uint8Array(value);
}

function hex(value: Uint8Array): string {
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex');
}

interface ProofRow {
  kind: 'size' | 'leaf' | 'node';
  level: number | null;
  index: string | null;
  hash: Uint8Array | null;
  entry: Uint8Array | null;
}

/** A proof read's answer: the head size when asked (else null), and the hashes of the nodes asked, by position. */
export interface ProofRead {
  size: number | null;
  nodes: (Uint8Array | undefined)[];
}

/** The rows of a proof read, placed: a proof asks a handful of nodes, so a scan beats keying each. */
function proofNodes(rows: readonly ProofRow[], nodes: readonly NodeId[]): ProofRead {
  let size: number | null = null;
  const hashes = new Array<Uint8Array | undefined>(nodes.length);
  for (const row of rows) {
    if (row.kind === 'size') size = Number(row.index);
    if (row.kind !== 'node') continue;
    const level = row.level!;
    const index = Number(row.index);
    for (let position = 0; position < nodes.length; position++) {
      if (nodes[position]!.level === level && nodes[position]!.index === index) hashes[position] = row.hash!;
    }
  }
  return { size, nodes: hashes };
}

const proofStatements = new Map<string, { label: string; text: string }>();

/**
 * The statement of a proof read of this shape, built once: only the parts it needs (a join against
 * an empty `unnest` still costs its executor setup). Parameters: the leaves' indexes (the asked
 * leaf first, for an inclusion proof), then the higher nodes' levels and indexes as two arrays.
 * Leaves are a short `IN` list: a proof asks at most a few, and a list of scalars plans and binds
 * cheaper than an array.
 */
function proofStatement(
  label: string,
  inclusion: boolean,
  withSize: boolean,
  leaves: number,
  upper: boolean,
): { label: string; text: string } {
  const shape = `${label}_${withSize ? 's' : ''}${leaves}${upper ? 'n' : ''}`;
  const known = proofStatements.get(shape);
  if (known) return known;
  const parts: string[] = [];
  if (withSize) parts.push(SIZE_ROW);
  if (leaves > 0) {
    const isLeaf = inclusion ? 'l."index" = $1' : 'false';
    const keys = Array.from({ length: leaves }, (_, i) => `$${i + 1}::bigint`).join(', ');
    parts.push(
      `SELECT CASE WHEN ${isLeaf} THEN 'leaf' ELSE 'node' END AS "kind", 0::smallint AS "level", l."index"::text AS "index", l."leaf_hash" AS "hash", CASE WHEN ${isLeaf} THEN l."entry" END AS "entry"
         FROM "transparency_leaf" l WHERE l."index" IN (${keys})`,
    );
  }
  if (upper) {
    parts.push(
      `SELECT 'node' AS "kind", n."level", n."index"::text AS "index", n."hash", NULL::bytea AS "entry"
         FROM unnest($${leaves + 1}::smallint[], $${leaves + 2}::bigint[]) AS wanted("level", "index")
         JOIN "transparency_node" n ON n."level" = wanted."level" AND n."index" = wanted."index"`,
    );
  }
  const statement = { label: shape, text: parts.join(' UNION ALL ') };
  proofStatements.set(shape, statement);
  return statement;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The append's statement (see TransparencyRepository.appendLeaf): the leaf at the log's size, and
 * up the tree while the node just made is a right child (odd index), its parent from its stored
 * left sibling. Its values are SQL literals already (a simple query takes no parameters).
 */
function appendStatement(entry: string, leafHash: string, release: string): string {
  return `WITH RECURSIVE tail AS (SELECT coalesce(max("index") + 1, 0) AS "size" FROM "transparency_leaf"),
  leaf AS (
    INSERT INTO "transparency_leaf" ("index", "entry", "leaf_hash", "release_id") SELECT tail."size", ${entry}, ${leafHash}, ${release} FROM tail RETURNING "index"
  ),
  made ("level", "index", "hash") AS (
    SELECT 0::smallint, tail."size", ${leafHash} FROM tail
    UNION ALL
    SELECT (made."level" + 1)::smallint, made."index" / 2, sha256(decode('01', 'hex') || n."hash" || made."hash")
      FROM made JOIN "transparency_node" n ON n."level" = made."level" AND n."index" = made."index" - 1
     WHERE made."index" % 2 = 1
  ),
  added AS (INSERT INTO "transparency_node" ("level", "index", "hash") SELECT "level", "index", "hash" FROM made RETURNING 1)
SELECT (SELECT "index" FROM leaf)::text AS "index", (SELECT count(*) FROM added)::int AS "nodes"`;
}

/** The log's committed size, as a scalar subquery. */
const SIZE_SQL = '(SELECT coalesce(max("index") + 1, 0) FROM "transparency_leaf")';
const SIZE_ROW = `SELECT 'size' AS "kind", NULL::smallint AS "level", ${SIZE_SQL}::text AS "index", NULL::bytea AS "hash", NULL::bytea AS "entry"`;

function nodesParams(nodes: readonly NodeId[]): [number[], string[]] {
  return [nodes.map((node) => node.level), nodes.map((node) => String(node.index))];
}

/**
 * Every query of the transparency log. A plain class over a DataSource (no Nest), so the operator
 * CLI (key rotation) appends with the very code the server uses. A proof reads all it needs in one
 * statement (leaf hashes by the leaf table's key, higher nodes by `unnest` of the wanted (level,
 * index) pairs against the node table's key), prepared once per connection (planning the
 * inclusion read cost more than running it).
 */
export class TransparencyRepository {
  constructor(private readonly dataSource: DataSource) {}

  private run<T>(manager: EntityManager | undefined, sql: string, params: unknown[] = []): Promise<T> {
    return (manager ?? this.dataSource.manager).query(sql, params);
  }

  /** The number of committed leaves (as seen by `manager`'s transaction). */
  async size(manager?: EntityManager): Promise<number> {
    const rows: { size: string }[] = await this.run(
      manager,
      'SELECT coalesce(max("index") + 1, 0)::text AS "size" FROM "transparency_leaf"',
    );
    return Number(rows[0].size);
  }

  /** The hashes of `nodes` that exist; one statement. */
  async findNodes(nodes: readonly NodeId[], manager?: EntityManager): Promise<NodeHashes> {
    const found: NodeHashes = new Map();
    if (nodes.length === 0) return found;
    const rows: { level: number; index: string; hash: Uint8Array }[] = await this.run(
      manager,
      `SELECT n."level", n."index"::text AS "index", n."hash"
         FROM unnest($1::smallint[], $2::bigint[]) AS wanted("level", "index")
         JOIN "transparency_node" n ON n."level" = wanted."level" AND n."index" = wanted."index"`,
      nodesParams(nodes),
    );
    for (const row of rows) found.set(`${row.level}/${row.index}`, bytes(row.hash));
    return found;
  }

  /**
   * One statement for an inclusion proof: the leaf, every node the proof folds (`nodes[i]` the hash
   * of the i-th asked, undefined if missing), and with `withSize` the head size (null without). The
   * leaf comes back null past the head.
   */
  async findInclusion(
    index: number,
    nodes: readonly NodeId[],
    withSize: boolean,
    manager?: EntityManager,
  ): Promise<ProofRead & { leaf: StoredLeaf | null }> {
    const rows = await this.proofRead(manager, 'log_inclusion', nodes, withSize, index);
    const leafRow = rows.find((row) => row.kind === 'leaf');
    const leaf = leafRow ? { index, entry: leafRow.entry!, leafHash: leafRow.hash! } : null;
    return { ...proofNodes(rows, nodes), leaf };
  }

  /** One statement for a consistency proof: the nodes (as findInclusion's), and with `withSize` the head size (null without). */
  async findSizeAndNodes(nodes: readonly NodeId[], withSize: boolean, manager?: EntityManager): Promise<ProofRead> {
    return proofNodes(await this.proofRead(manager, 'log_nodes', nodes, withSize, null), nodes);
  }

  /**
   * A proof's read, one prepared statement: the leaf asked and level-0 nodes (leaf hashes) from the
   * leaf table by primary key, higher nodes by `unnest` against the node table's key, and the head
   * size with `withSize`.
   */
  private proofRead(
    manager: EntityManager | undefined,
    label: string,
    nodes: readonly NodeId[],
    withSize: boolean,
    leafIndex: number | null,
  ): Promise<ProofRow[]> {
    const values: unknown[] = leafIndex === null ? [] : [String(leafIndex)];
    const upper: NodeId[] = [];
    for (const node of nodes) {
      if (node.level === 0) values.push(String(node.index));
      else upper.push(node);
    }
    const leaves = values.length;
    if (upper.length > 0) values.push(...nodesParams(upper));
    if (!withSize && leaves === 0 && upper.length === 0) return Promise.resolve([]);
    const statement = proofStatement(label, leafIndex !== null, withSize, leaves, upper.length > 0);
    return preparedQuery<ProofRow>(manager ?? this.dataSource.manager, statement.label, statement.text, values);
  }

  /** The hashes of nodes [from, to) of `level`, concatenated in index order (one value, not a row per node). */
  async levelHashes(level: number, from: number, to: number): Promise<Uint8Array> {
    const rows: { hashes: Uint8Array | null }[] = await this.run(
      undefined,
      'SELECT string_agg("hash", \'\'::bytea ORDER BY "index") AS "hashes" FROM "transparency_node" WHERE "level" = $1 AND "index" >= $2 AND "index" < $3',
      [level, String(from), String(to)],
    );
    return rows[0]?.hashes ? bytes(rows[0].hashes) : new Uint8Array(0);
  }

  async findLeaf(index: number, manager?: EntityManager): Promise<StoredLeaf | null> {
    const rows: { index: string; entry: Uint8Array; leaf_hash: Uint8Array }[] = await this.run(
      manager,
      'SELECT "index"::text AS "index", "entry", "leaf_hash" FROM "transparency_leaf" WHERE "index" = $1',
      [String(index)],
    );
    return rows[0] ? { index: Number(rows[0].index), entry: bytes(rows[0].entry), leafHash: bytes(rows[0].leaf_hash) } : null;
  }

  /** The entries of leaves [start, start + count), in order (fewer past the head). */
  async findEntries(start: number, count: number, manager?: EntityManager): Promise<Uint8Array[]> {
    const rows: { entry: Uint8Array }[] = await this.run(
      manager,
      'SELECT "entry" FROM "transparency_leaf" WHERE "index" >= $1 AND "index" < $2 ORDER BY "index"',
      [String(start), String(start + count)],
    );
    return rows.map((row) => bytes(row.entry));
  }

  /**
   * Appends a leaf in one round trip: the tail lock, then one statement that reads the log's size
   * n, writes the leaf at n and every subtree it completes, hashed here in SQL as RFC 9162 hashes
   * an interior node (SHA-256 of 0x01, left, right; the left sibling is the stored root subtree of
   * the tree of n leaves at that level). Two statements in one simple query: the second takes its
   * snapshot after the first has the lock (READ COMMITTED takes one per statement), so it sees
   * every earlier append committed. An append's time is mostly its round trips on a busy machine
   * (docs/performance.md): with the subtrees hashed in Node it took two, the tail and its roots
   * read back before the insert. `nodes`: how many nodes were written, the leaf's own included (a
   * missing left sibling ends the chain early; the caller checks).
   */
  async appendLeaf(manager: EntityManager, leaf: NewLeaf): Promise<{ index: number; nodes: number }> {
    const runner = manager.queryRunner;
    if (!runner) throw new Error('transparency log: an append runs inside a transaction');
    if (leaf.releaseId !== null && !UUID.test(leaf.releaseId))
      throw new Error(`transparency log: release id ${leaf.releaseId} is not a UUID`);
    const client = (await runner.connect()) as PoolClient;
    // A simple query takes no parameters: the values are hex and a checked UUID, nothing to escape.
    const statement = appendStatement(
      `decode('${hex(leaf.entry)}', 'hex')`,
      `decode('${hex(leaf.leafHash)}', 'hex')`,
      leaf.releaseId === null ? 'NULL::uuid' : `'${leaf.releaseId}'::uuid`,
    );
    const results = (await client.query(
      `SELECT pg_advisory_xact_lock(${TRANSPARENCY_LOG_LOCK}); ${statement}`,
    )) as unknown as QueryResult[];
    const row = results[1]!.rows[0] as { index: string; nodes: number };
    return { index: Number(row.index), nodes: row.nodes };
  }
}
