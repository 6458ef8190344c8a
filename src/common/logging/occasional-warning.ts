/** How often a lasting failure (Redis or a replica down) is reported. */
export const OCCASIONAL_WARNING_INTERVAL_MS = 60_000;

/**
 * A warning said at most once per interval: while a dependency is down every request fails
 * over to its fallback, and one line a minute tells the operator without flooding the log.
 */
export class OccasionalWarning {
  private lastSaidAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly warn: (message: string) => void,
    private readonly now: () => number = Date.now,
    private readonly intervalMs = OCCASIONAL_WARNING_INTERVAL_MS,
  ) {}

  say(message: string): void {
    const now = this.now();
    if (now - this.lastSaidAt < this.intervalMs) return;
    this.lastSaidAt = now;
    this.warn(message);
  }
}
