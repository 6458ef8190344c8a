import type { Request } from 'express';
import type { ProvisionalCharge } from './rate-limiter';

/** Publish requests the middleware counted against their address until the token guard verifies the token. */
const charges = new WeakMap<Request, ProvisionalCharge>();

export function leaveProvisionalCharge(request: Request, charge: ProvisionalCharge): void {
  charges.set(request, charge);
}

/** The provisional charge left on this request, handed over once. */
export function takeProvisionalCharge(request: Request): ProvisionalCharge | undefined {
  const charge = charges.get(request);
  charges.delete(request);
  return charge;
}
