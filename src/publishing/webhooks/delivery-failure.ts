import type { ProblemFieldError } from '../../common/errors/domain-error';

/** A delivery that cannot succeed as it is (no retry): its reason is a problem code shown to owners. */
export class DeliveryFailure extends Error {
  constructor(
    readonly reason: string,
    readonly detail: string,
    readonly violations: ProblemFieldError[] | null = null,
  ) {
    super(detail);
    this.name = 'DeliveryFailure';
  }
}

/** Network trouble worth another attempt: no answer, a timeout, a 5xx or a 429. */
export function isTransient(reason: string | undefined, status: number | undefined): boolean {
  if (reason === 'network' || reason === 'timeout') return true;
  return status !== undefined && (status >= 500 || status === 429);
}
