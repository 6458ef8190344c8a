/** Which bound a take would pass: the instance's, or the one for a single owner. */
export type PictureBound = 'instance' | 'owner';

/**
 * The picture bytes this process holds (downloads as they arrive, a source waiting for or in the
 * decoder, encodings until they are stored, as soon as each is made), bounded per instance and
 * per owner (a publisher, a plugin for webhooks, the README proxy). A take past either bound is
 * refused, never waited for: a waiting ingest would keep what it holds and could wait forever on
 * others doing the same. Framework-free.
 */
export class PictureBudget {
  private heldBytes = 0;
  private peakBytes = 0;
  private peakOwnerBytes = 0;
  private readonly byOwner = new Map<string, number>();

  constructor(
    readonly instanceBytes: number,
    readonly ownerBytes: number,
  ) {}

  /** Bytes held now. */
  get held(): number {
    return this.heldBytes;
  }

  /** The most ever held at once in this process (for tests and benchmarks). */
  get peak(): number {
    return this.peakBytes;
  }

  /** The most any one owner ever held at once (for tests and benchmarks). */
  get peakPerOwner(): number {
    return this.peakOwnerBytes;
  }

  heldFor(owner: string): number {
    return this.byOwner.get(owner) ?? 0;
  }

  /** Takes `bytes` for `owner` when both bounds allow; otherwise takes nothing and says which bound refused. */
  take(owner: string, bytes: number): PictureBound | null {
    const owned = this.heldFor(owner);
    if (this.heldBytes + bytes > this.instanceBytes) return 'instance';
    if (owned + bytes > this.ownerBytes) return 'owner';
    this.byOwner.set(owner, owned + bytes);
    this.heldBytes += bytes;
    this.peakBytes = Math.max(this.peakBytes, this.heldBytes);
    this.peakOwnerBytes = Math.max(this.peakOwnerBytes, owned + bytes);
    return null;
  }

  give(owner: string, bytes: number): void {
    const left = this.heldFor(owner) - bytes;
    if (left > 0) this.byOwner.set(owner, left);
    else this.byOwner.delete(owner);
    this.heldBytes -= bytes;
  }

  /** An account for one piece of work (an ingest, a proxied image): it gives back all it took in one call. */
  hold(owner: string): PictureHold {
    return new PictureHold(this, owner);
  }
}

/** What one ingest or proxy request holds of a PictureBudget; `release()` when its pictures are no longer kept. */
export class PictureHold {
  private bytes = 0;

  constructor(
    private readonly budget: PictureBudget,
    readonly owner: string,
  ) {}

  get held(): number {
    return this.bytes;
  }

  take(bytes: number): PictureBound | null {
    const refused = this.budget.take(this.owner, bytes);
    if (refused === null) this.bytes += bytes;
    return refused;
  }

  give(bytes: number): void {
    const given = Math.min(bytes, this.bytes);
    this.budget.give(this.owner, given);
    this.bytes -= given;
  }

  release(): void {
    this.give(this.bytes);
  }
}
