import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { badRequest, notFound } from '../../common/errors/domain-error';
import { IntegrityService } from '../integrity/integrity.service';
import { UpstreamLog } from '../mirror-log/upstream-log';
import { base64urlDecode } from '../../lib/integrity';
import { consistencyProofNodes, decodeLogEntry, formatVerifierKey, inclusionProofNodes, type NodeId } from '../../lib/transparency';
import type { ConsistencyProofDto, InclusionProofDto, LogEntryDto, LogKeyDto } from './dto/log.dto';
import { LogHeads } from './log-heads';
import { toConsistencyProofDto, toInclusionProofDto, toLogEntryDto } from './transparency.mapper';
import { MissingProofNode, type ProofPlan, UpperTreeLevels } from './upper-tree-levels';
import { TransparencyRepository } from '../transparency-log/transparency.repository';

function pastHead(field: string, value: number, head: number) {
  return badRequest('validation-failed', `${field} is past the log's head`, [
    { path: `/${field}`, message: `${field}: must be at most the head's size, ${head} (asked ${value})` },
  ]);
}

/**
 * The log's public reads: signed head, key, proofs and entries (tiles: LogTiles). Every proof is
 * one query (the head size, the leaf and all its nodes). A mirror has no log of its own: every read
 * is upstream's, passed on read-only (UpstreamLog, docs/mirror.md). The upper levels of the tree
 * are held in process (UpperTreeLevels, filled from start-up), so the query fetches only the leaf
 * and the leaf hashes the proof needs (and the nodes of levels not held, on a log past the levels'
 * byte bound).
 */
@Injectable()
export class TransparencyService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly upper: UpperTreeLevels;
  private readonly logger = new Logger('TransparencyLog');

  constructor(
    private readonly repository: TransparencyRepository,
    private readonly heads: LogHeads,
    private readonly integrity: IntegrityService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly upstream: UpstreamLog,
  ) {
    this.upper = new UpperTreeLevels(
      { size: () => repository.size(), levelHashes: (level, from, to) => repository.levelHashes(level, from, to) },
      (error) =>
        this.logger.warn(
          `could not read the log's upper levels (proofs read them per request meanwhile): ${error instanceof Error ? error.message : String(error)}`,
        ),
    );
  }

  /**
   * Starts filling the held levels at start-up, in the background (start-up does not wait): filled
   * on the first proof instead, the first seconds of proofs after a restart each read ~20 nodes,
   * and the fill's reads queue behind theirs (at 1M entries under load, ~35 s of proofs at a tenth
   * of their rate).
   */
  onApplicationBootstrap(): void {
    if (this.config.mirrorOf) return;
    this.committedSize().catch((error: unknown) =>
      this.logger.warn(`could not read the log's size at start: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  /** Stops the fill before the pool closes. */
  onModuleDestroy(): Promise<void> {
    return this.upper.close();
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
    const head = size === undefined ? await this.committedSize() : null;
    const treeSize = size ?? head!;
    if (index >= treeSize) {
      throw badRequest('validation-failed', 'index is not in the tree', [
        { path: '/index', message: `index: must be less than the tree size, ${treeSize}` },
      ]);
    }
    const groups = inclusionProofNodes(index, treeSize);
    // The head is read with the proof unless a size at least this large was read just now.
    const withSize = head === null && !this.upper.committedAtLeast(treeSize);
    const plan = this.upper.plan(groups);
    const readAt = this.upper.readStart();
    const answer = await this.repository.findInclusion(index, plan.toRead, withSize);
    if (answer.size !== null) this.checkHead('size', treeSize, answer.size, readAt);
    // Only a log seen smaller than it was (a failover, a restore) lacks a leaf below a size read.
    if (!answer.leaf) {
      const committed = await this.committedSize();
      if (treeSize > committed) throw pastHead('size', treeSize, committed);
    }
    if (!answer.leaf) throw new Error(`transparency log: leaf ${index} is missing below the committed size`);
    return toInclusionProofDto(index, treeSize, answer.leaf, await this.elements('size', treeSize, groups, plan, answer.nodes));
  }

  async consistency(from: number, to: number): Promise<ConsistencyProofDto> {
    if (this.config.mirrorOf) return this.upstream.consistency<ConsistencyProofDto>(from, to);
    if (from > to)
      throw badRequest('validation-failed', 'from is after to', [{ path: '/from', message: `from: must be at most to (${to})` }]);
    // RFC 9162 2.1.4: the empty tree and a tree itself need no proof.
    const groups = from === 0 || from === to ? [] : consistencyProofNodes(from, to);
    const plan = this.upper.plan(groups);
    const withSize = !this.upper.committedAtLeast(to);
    let read: (Uint8Array | undefined)[] = [];
    // Every node held or folded and the head read just now: nothing to ask the database.
    if (withSize || plan.toRead.length > 0) {
      const readAt = this.upper.readStart();
      const answer = await this.repository.findSizeAndNodes(plan.toRead, withSize);
      if (answer.size !== null) this.checkHead('to', to, answer.size, readAt);
      read = answer.nodes;
    }
    return toConsistencyProofDto(from, to, await this.elements('to', to, groups, plan, read));
  }

  /** The proof's elements, base64; a node missing means the log is smaller than the size a read trusted: a 400 then. */
  private async elements(
    field: string,
    asked: number,
    groups: NodeId[][],
    plan: ProofPlan,
    read: (Uint8Array | undefined)[],
  ): Promise<string[]> {
    try {
      return this.upper.elements(groups, plan, read);
    } catch (error) {
      if (error instanceof MissingProofNode) {
        const readAt = this.upper.readStart();
        this.checkHead(field, asked, await this.repository.size(), readAt);
      }
      throw error;
    }
  }

  private async committedSize(): Promise<number> {
    const readAt = this.upper.readStart();
    const size = await this.repository.size();
    this.upper.sawCommittedSize(size, readAt);
    return size;
  }

  /** Tells the held levels what a read started at `readAt` saw; a 400 when the asked size is past it. */
  private checkHead(field: string, asked: number, committed: number, readAt: number): void {
    this.upper.sawCommittedSize(committed, readAt);
    if (asked > committed) throw pastHead(field, asked, committed);
  }

  async entry(index: number): Promise<LogEntryDto> {
    if (this.config.mirrorOf) return this.upstream.entry<LogEntryDto>(index);
    const leaf = await this.repository.findLeaf(index);
    if (!leaf) throw notFound(`the log has no entry ${index} (yet)`);
    return toLogEntryDto(leaf.index, decodeLogEntry(leaf.entry), leaf.leafHash);
  }
}
