import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { KindsService } from '../kinds/kinds.service';

/** How long this instance keeps its copy of the fields before reading them again unasked. */
export const FACET_FIELDS_MAX_AGE_MS = 5_000;

/** The extension keys facets are counted for, and the `settings_version` they were read under. */
export interface FacetFields {
  keys: readonly string[];
  version: string;
}

/**
 * The extension keys the catalogue counts facets for (fields declared as an enum or a boolean),
 * kept in memory: read again when older than FACET_FIELDS_MAX_AGE_MS, at once when an admin
 * changes the schema on this instance, and when a catalogue page's snapshot shows another
 * `settings_version` than the copy's (`stale`: a change made through another instance). A faceted
 * page never waits for the read but the first and one after such a change: an old list is
 * answered while the new one is read only when nothing says it changed.
 */
@Injectable()
export class CatalogueFacetFields {
  private fields: FacetFields | null = null;
  private readAt = -Infinity;
  private reading: Promise<FacetFields> | null = null;

  constructor(
    private readonly kinds: KindsService,
    private readonly clock: Clock,
  ) {
    kinds.onExtensionSchemaChange(() => this.forget());
  }

  async extensionKeys(): Promise<FacetFields> {
    const fresh = this.clock.nowMs() - this.readAt < FACET_FIELDS_MAX_AGE_MS;
    if (this.fields && fresh) return this.fields;
    const reading = this.reading ?? this.read();
    if (!this.fields) return reading;
    // Stale by age only: answered with the old list; a failed read is tried again by the next page.
    reading.catch(() => undefined);
    return this.fields;
  }

  /** A snapshot showed `version`: a copy read under another is forgotten, and the next page waits for a new one. */
  stale(version: string): void {
    if (this.fields?.version !== version) this.forget();
  }

  private forget(): void {
    this.readAt = -Infinity;
    // A read begun before the change may hold the old schema: the next page reads again.
    this.reading = null;
    this.fields = null;
  }

  private read(): Promise<FacetFields> {
    const startedAt = this.clock.nowMs();
    const reading = this.kinds.facetableExtensionKeys().then(
      (fields) => {
        if (this.reading === reading) {
          this.fields = fields;
          this.readAt = startedAt;
          this.reading = null;
        }
        return fields;
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
