import type { CatalogueChange, ChangeFeed } from './catalogue-index.repository';

/**
 * Where an index stands in the catalogue change log. Snapshots answer out of order (a slow read
 * of an older snapshot can come back after a newer one), so a change counts as new only when its
 * sequence number is above the newest applied for its plugin: a plugin's changes are numbered in
 * the order they commit, since each writer holds the plugin's row lock.
 */
export class ChangeCursor {
  /** Changes by transactions from this id on are read again: they may not all have been visible yet. */
  private xmin = 0;
  private readonly appliedSeq = new Map<string, number>();

  /** Starts over from a snapshot's xmin taken before the index's own read of the catalogue. */
  reset(xmin: number): void {
    this.xmin = xmin;
    this.appliedSeq.clear();
  }

  get since(): number {
    return this.xmin;
  }

  /** The feed's changes not applied yet (each plugin once, with the snapshot's document), now counted as applied. */
  take(feed: Pick<ChangeFeed, 'changes' | 'xmin'>): CatalogueChange[] {
    const unseen = new Map<string, CatalogueChange>();
    for (const change of feed.changes) {
      if ((this.appliedSeq.get(change.pluginId) ?? 0) >= change.seq) continue;
      this.appliedSeq.set(change.pluginId, change.seq);
      unseen.set(change.pluginId, change);
    }
    this.xmin = Math.max(this.xmin, feed.xmin);
    return [...unseen.values()];
  }
}
