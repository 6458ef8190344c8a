import type { Logger } from 'pino';
import { currentRequestId } from './logging/request-context';

/** Where an error escaped from: a listener on a finished response, or nowhere we could catch it. */
export type StrayErrorSource = 'response-hook' | 'uncaught-exception' | 'unhandled-rejection';

/**
 * The last resort for errors thrown outside any request handler: each is logged as one line (with
 * the request id where known) and counted, and the process keeps serving. One request must never
 * be able to end a process that is serving everybody else's.
 */
export class StrayErrors {
  constructor(
    private readonly logger: Logger,
    private readonly count: (source: StrayErrorSource) => void = () => undefined,
  ) {}

  report(source: StrayErrorSource, error: unknown, requestId = currentRequestId()): void {
    this.count(source);
    const err = error instanceof Error ? { type: error.name, message: error.message, stack: error.stack } : { message: String(error) };
    this.logger.error({ source, err, ...(requestId ? { requestId } : {}) }, `an error escaped (${source}); the server keeps serving`);
  }

  /** Runs a hook (a response listener, a timer's body) so that what it throws is reported, never raised. */
  guard<A extends unknown[]>(source: StrayErrorSource, hook: (...args: A) => void, requestId?: string): (...args: A) => void {
    return (...args: A) => {
      try {
        hook(...args);
      } catch (error) {
        this.report(source, error, requestId);
      }
    };
  }

  /** Installs the process-wide handlers once the server is up; returns their removal. */
  catchProcessWide(): () => void {
    const uncaught = (error: unknown) => this.report('uncaught-exception', error);
    const unhandled = (reason: unknown) => this.report('unhandled-rejection', reason);
    process.on('uncaughtException', uncaught);
    process.on('unhandledRejection', unhandled);
    return () => {
      process.off('uncaughtException', uncaught);
      process.off('unhandledRejection', unhandled);
    };
  }
}
