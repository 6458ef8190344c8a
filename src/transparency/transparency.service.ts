import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.types';
import { badRequest, notFound } from '../common/errors/domain-error';
import { IntegrityService } from '../integrity/integrity.service';
import { UpstreamLog } from '../mirror-log/upstream-log';
import { base64urlDecode } from '../lib/integrity';
import { consistencyProofNodes, decodeLogEntry, foldSubtrees, formatVerifierKey, inclusionProofNodes, type Hash, type NodeId } from '../lib/transparency';
import type { ConsistencyProofDto, InclusionProofDto, LogEntryDto, LogKeyDto } from './dto/log.dto';
import { LogHeads } from './log-heads';
import { toConsistencyProofDto, toInclusionProofDto, toLogEntryDto } from './transparency.mapper';
import { UpperTreeLevels } from './upper-tree-levels';
import { nodeKey, type NodeHashes, TransparencyRepository } from '../transparency-log/transparency.repository';

/** Each proof element: the fold of its subtrees, read from one query's answer. */
function foldProof(groups: readonly NodeId[][], found: NodeHashes): Hash[] {
  return groups.map((group) =>
    foldSubtrees(
      group.map((node) => {
        const hash = found.get(nodeKey(node));
        if (!hash) throw new Error(`transparency log: proof node ${nodeKey(node)} is missing`);
        return hash;
      }),
    ),
  );
}

function pastHead(field: string, value: number, head: number) {
  return badRequest('validation-failed', `${field} is past the log's head`, [{ path: `/${field}`, message: `${field}: must be at most the head's size, ${head} (asked ${value})` }]);
}

/**
 * The log's public reads: signed head, key, proofs and entries (tiles: LogTiles). Every proof is
 * one query (the head size, the leaf and all its nodes). A mirror has no log of its own: every read
 * is upstream's, passed on read-only (UpstreamLog, docs/mirror.md). The upper levels of the tree
 * are held in process (UpperTreeLevels), so the query fetches only the leaf and the lowest few
 * nodes.
 */
@Injectable()
export class TransparencyService {
  private readonly upper: UpperTreeLevels;

  constructor(
    private readonly repository: TransparencyRepository,
    private readonly heads: LogHeads,
    private readonly integrity: IntegrityService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly upstream: UpstreamLog,
  ) {
    const logger = new Logger('TransparencyLog');
    this.upper = new UpperTreeLevels(
      { size: () => repository.size(), levelHashes: (level, from, to) => repository.levelHashes(level, from, to) },
      (error) => logger.warn(`could not read the log's upper levels (proofs read them per request meanwhile): ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  async checkpoint(): Promise<string> {
    if (this.config.mirrorOf) return this.upstream.checkpoint();
    return this.heads.checkpoint();
  }

  async key(): Promise<LogKeyDto> {
    if (this.config.mirrorOf) return this.upstream.key<LogKeyDto>();
    const { keys } = await this.integrity.keySet();
    const origin = this.heads.origin;
    return { origin, verifier_keys: keys.map((jwk) => formatVerifierKey(origin, base64urlDecode(jwk.x)!)) };
  }

  async inclusion(index: number, size?: number): Promise<InclusionProofDto> {
    if (this.config.mirrorOf) return this.upstream.inclusion<InclusionProofDto>(index, size);
    const treeSize = size ?? (await this.repository.size());
    if (index >= treeSize) {
      throw badRequest('validation-failed', 'index is not in the tree', [{ path: '/index', message: `index: must be less than the tree size, ${treeSize}` }]);
    }
    const groups = inclusionProofNodes(index, treeSize);
    const found: NodeHashes = new Map();
    const answer = await this.repository.findInclusion(index, this.upper.lookup(groups.flat(), found));
    this.upper.sawCommittedSize(answer.size);
    if (treeSize > answer.size) throw pastHead('size', treeSize, answer.size);
    for (const [key, hash] of answer.nodes) found.set(key, hash);
    return toInclusionProofDto(index, treeSize, answer.leaf!, foldProof(groups, found));
  }

  async consistency(from: number, to: number): Promise<ConsistencyProofDto> {
    if (this.config.mirrorOf) return this.upstream.consistency<ConsistencyProofDto>(from, to);
    if (from > to) throw badRequest('validation-failed', 'from is after to', [{ path: '/from', message: `from: must be at most to (${to})` }]);
    // RFC 9162 2.1.4: the empty tree and a tree itself need no proof.
    const groups = from === 0 || from === to ? [] : consistencyProofNodes(from, to);
    const found: NodeHashes = new Map();
    const answer = await this.repository.findSizeAndNodes(this.upper.lookup(groups.flat(), found));
    this.upper.sawCommittedSize(answer.size);
    if (to > answer.size) throw pastHead('to', to, answer.size);
    for (const [key, hash] of answer.nodes) found.set(key, hash);
    return toConsistencyProofDto(from, to, foldProof(groups, found));
  }

  async entry(index: number): Promise<LogEntryDto> {
    if (this.config.mirrorOf) return this.upstream.entry<LogEntryDto>(index);
    const leaf = await this.repository.findLeaf(index);
    if (!leaf) throw notFound(`the log has no entry ${index} (yet)`);
    return toLogEntryDto(leaf.index, decodeLogEntry(leaf.entry), leaf.leafHash);
  }
}
