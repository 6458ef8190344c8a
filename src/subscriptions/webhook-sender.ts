import { Inject, Injectable } from '@nestjs/common';
import { AssetFetchError, postBytes } from '../common/fetch';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.types';
import { signPayload } from './signing-secret';

/** How one POST ended. */
export type SendResult =
  | { ok: true; status: number; detail: string | null }
  | { ok: false; status: number | null; detail: string };

/** The fetch limits of a delivery: 10 s in all, the answer read up to 64 KiB. */
export const SEND_LIMITS = { maxBytes: 64 * 1024, connectTimeoutMs: 5_000, idleTimeoutMs: 10_000, totalTimeoutMs: 10_000 };

/** The detail of an attempt the fetch policy refused at send time (the host resolved to a non-public address). */
export const REFUSED_BY_POLICY = 'refused by the fetch policy: the host must resolve to a public address';

export const WEBHOOK_USER_AGENT = 'plugin-registry-webhooks/0.1';

/**
 * POSTs one signed message to a subscriber, through the SSRF-safe fetcher (https only; http and
 * private addresses only for FETCH_ALLOW_HOSTS; no redirect followed). Never throws: every
 * failure is a result with a short reason safe to show the subscription's owner.
 */
@Injectable()
export class WebhookSender {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async send(url: string, secret: string, id: string, body: Buffer, timestampS: number): Promise<SendResult> {
    const headers = {
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
      'webhook-id': id,
      'webhook-timestamp': String(timestampS),
      'webhook-signature': signPayload(secret, id, timestampS, body),
    };
    try {
      const answer = await postBytes(url, body, headers, { ...SEND_LIMITS, allowHosts: this.config.fetchAllowHosts });
      const snippet = printable(answer.snippet.toString('utf8'));
      return { ok: true, status: answer.status, detail: snippet || null };
    } catch (error) {
      // The owner sees this detail: a refused address is told generically, never what the host
      // resolves to or which class of address that is (internal DNS would leak through it).
      if (error instanceof AssetFetchError && error.reason === 'refused-address') return { ok: false, status: null, detail: REFUSED_BY_POLICY };
      if (error instanceof AssetFetchError) return { ok: false, status: error.status ?? null, detail: error.message.slice(0, 300) };
      return { ok: false, status: null, detail: 'the delivery failed' };
    }
  }
}

/** The start of the receiver's answer, one line, for the delivery log. */
function printable(text: string): string {
  return [...text].map((c) => (c < ' ' || c === '\u007f' ? ' ' : c)).join('').replace(/ +/g, ' ').trim().slice(0, 200);
}
