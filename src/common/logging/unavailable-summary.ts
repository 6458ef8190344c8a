import { OCCASIONAL_WARNING_INTERVAL_MS } from './occasional-warning';

interface CauseState {
  lastSaidAt: number;
  /** 503s of this cause answered since its last warning. */
  since: number;
}

/**
 * 503s summarised by cause, so the logs stay readable (docs/operating.md#logs). While the database
 * is down every request answers 503; each keeps its one access line (at info), and the outage
 * itself is one warning per cause per interval, saying how many requests it turned away since the
 * last one, like the Redis fallback's OccasionalWarning. Causes are problem codes (a short fixed
 * set).
 */
export class UnavailableSummary {
  private readonly causes = new Map<string, CauseState>();

  constructor(
    private readonly warn: (fields: Record<string, unknown>, message: string) => void,
    private readonly now: () => number = Date.now,
    private readonly intervalMs = OCCASIONAL_WARNING_INTERVAL_MS,
  ) {}

  note(cause: string, detail: string): void {
    const now = this.now();
    const state = this.causes.get(cause);
    if (state && now - state.lastSaidAt < this.intervalMs) {
      state.since += 1;
      return;
    }
    const since = state?.since ?? 0;
    this.causes.set(cause, { lastSaidAt: now, since: 0 });
    const more = since > 0 ? `; ${since} more answered 503 for it since the last warning` : '';
    this.warn({ cause, since }, `answering 503 (${cause}): ${detail}${more} (said at most once a minute per cause)`);
  }
}
