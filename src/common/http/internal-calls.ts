import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { RandomSource } from '../clock';
import { sameSecret } from '../crypto/same-secret';

/** The header the web pages send on their own API calls; redacted from logs like a credential. */
export const INTERNAL_CALL_HEADER = 'x-registry-internal';

/**
 * The web front end renders pages from this instance's own public API over loopback. Those calls
 * carry a key only this process knows, so the rate limiter meters the visitor's page view once
 * instead of every API call behind it (which would all come from 127.0.0.1). The key grants
 * nothing else: authentication still comes from the visitor's forwarded cookie.
 */
@Injectable()
export class InternalCalls {
  private readonly key: string;

  constructor(random: RandomSource) {
    this.key = random.bytes(32).toString('base64url');
  }

  headerValue(): string {
    return this.key;
  }

  isInternal(request: Pick<Request, 'headers'>): boolean {
    const presented = request.headers[INTERNAL_CALL_HEADER];
    return typeof presented === 'string' && sameSecret(presented, this.key);
  }
}
