import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { KindsService } from '../kinds/kinds.service';

/** How long another instance's schema change may take to show in this one's facets. */
export const FACET_FIELDS_MAX_AGE_MS = 5_000;

/**
 * The extension keys the catalogue counts facets for (fields declared as an enum or a boolean),
 * kept in memory: read again when older than FACET_FIELDS_MAX_AGE_MS, and at once when an admin
 * changes the schema on this instance. A faceted page never waits for the read but the first:
 * an old list is answered while the new one is read.
 */
@Injectable()
export class CatalogueFacetFields {
  private keys: readonly string[] | null = null;
  private readAt = -Infinity;
  private reading: Promise<readonly string[]> | null = null;

  constructor(
    private readonly kinds: KindsService,
    private readonly clock: Clock,
  ) {
    kinds.onExtensionSchemaChange(() => {
      this.readAt = -Infinity;
      // A read begun before the change may hold the old schema: the next page reads again.
      this.reading = null;
      this.keys = null;
    });
  }

  async extensionKeys(): Promise<readonly string[]> {
    const fresh = this.clock.nowMs() - this.readAt < FACET_FIELDS_MAX_AGE_MS;
    if (this.keys && fresh) return this.keys;
    const reading = this.reading ?? this.read();
    if (!this.keys) return reading;
    // Stale: answered with the old list; a failed read is tried again by the next page.
    reading.catch(() => undefined);
    return this.keys;
  }

  private read(): Promise<readonly string[]> {
    const startedAt = this.clock.nowMs();
    const reading = this.kinds.facetableExtensionKeys().then(
      (keys) => {
        if (this.reading === reading) {
          this.keys = keys;
          this.readAt = startedAt;
          this.reading = null;
        }
        return keys;
      },
      (error: unknown) => {
        if (this.reading === reading) this.reading = null;
        throw error;
      },
    );
    this.reading = reading;
    return reading;
  }
}
