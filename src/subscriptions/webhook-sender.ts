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
      if (error instanceof AssetFetchError) return { ok: false, status: error.status ?? null, detail: error.message.slice(0, 300) };
      return { ok: false, status: null, detail: 'the delivery failed' };
    }
  }
}

/** The start of the receiver's answer, one line, for the delivery log. */
function printable(text: string): string {
  return [...text].map((c) => (c < ' ' || c === '\u007f' ? ' ' : c)).join('').replace(/ +/g, ' ').trim().slice(0, 200);
}
