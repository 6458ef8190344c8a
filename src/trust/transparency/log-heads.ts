import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { IntegrityService } from '../integrity/integrity.service';
import { foldSubtrees, formatCheckpoint, rootNodes, signNote, type Hash } from '../../lib/transparency';
import { logOrigin } from './log-origin';
import { nodeKey, TransparencyRepository } from '../transparency-log/transparency.repository';

/** Signed heads kept per instance: the newest few sizes (readers ask for the head, rarely an old one). */
const KEPT_HEADS = 8;

/**
 * The log's signed tree heads: a C2SP checkpoint (origin, size, root hash) in a signed note,
 * signed with the registry's current Ed25519 key. Signed at most once per size per instance: a
 * head's size only changes with an append, and every key-set change is an append, so a head
 * cached for its size is never one signed by a key that has left the key set.
 */
@Injectable()
export class LogHeads {
  private readonly signed = new Map<number, Promise<string>>();
  readonly origin: string;

  constructor(
    private readonly repository: TransparencyRepository,
    private readonly integrity: IntegrityService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.origin = logOrigin(config.baseUrl);
  }

  /** The root hash of the tree of `size` leaves (all committed), from its root subtrees in one query. */
  async rootHash(size: number): Promise<Hash> {
    const nodes = rootNodes(size);
    const found = await this.repository.findNodes(nodes);
    return foldSubtrees(
      nodes.map((node) => {
        const hash = found.get(nodeKey(node));
        if (!hash) throw new Error(`transparency log: node ${nodeKey(node)} of a tree of ${size} is missing`);
        return hash;
      }),
    );
  }

  /** The signed checkpoint of the current head. */
  async checkpoint(): Promise<string> {
    const size = await this.repository.size();
    let note = this.signed.get(size);
    if (!note) {
      note = this.sign(size);
      this.signed.set(size, note);
      // A failed signing is not kept: the next request tries again.
      note.catch(() => this.signed.delete(size));
      while (this.signed.size > KEPT_HEADS) this.signed.delete(this.signed.keys().next().value!);
    }
    return note;
  }

  private async sign(size: number): Promise<string> {
    const rootHash = await this.rootHash(size);
    const signer = await this.integrity.currentSigner();
    return signNote(formatCheckpoint({ origin: this.origin, size, rootHash, extensions: [] }), [
      { name: this.origin, publicKey: signer.publicKey, sign: (message) => signer.sign(message) },
    ]);
  }
}
