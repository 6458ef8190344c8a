import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { AssetFetchError, postBytes } from '../../common/fetch';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { signPayload } from './signing-secret';

/**
 * How one POST ended: the receiver's status and how long the attempt took, and for a failure a
 * generic reason. Never any byte of the receiver's answer: a subscription's owner chose the URL,
 * so an answer passed on would let them read whatever the URL's server says to the registry.
 */
export type SendResult =
  { ok: true; status: number; detail: null; durationMs: number } | { ok: false; status: number | null; detail: string; durationMs: number };

/** The fetch limits of a delivery: 10 s in all, the answer read (and discarded) up to 64 KiB. */
export const SEND_LIMITS = { maxBytes: 64 * 1024, connectTimeoutMs: 5_000, idleTimeoutMs: 10_000, totalTimeoutMs: 10_000 };

/** The detail of an attempt the fetch policy refused at send time (the host resolved to a non-public address). */
export const REFUSED_BY_POLICY = 'refused address: the host must resolve to a public address';

export const WEBHOOK_USER_AGENT = 'plugin-registry-webhooks/0.1';

/**
 * POSTs one signed message to a subscriber, through the SSRF-safe fetcher (https only; http and
 * private addresses only for SUBSCRIPTION_ALLOW_HOSTS, never FETCH_ALLOW_HOSTS; every address
 * checked again at connect time; no redirect followed). Never throws: every failure is a result
 * with a short, generic reason safe to show the subscription's owner.
 */
@Injectable()
export class WebhookSender {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async send(url: string, secret: string, id: string, body: Buffer, timestampS: number): Promise<SendResult> {
    const headers = {
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
      'webhook-id': id,
      'webhook-timestamp': String(timestampS),
      'webhook-signature': signPayload(secret, id, timestampS, body),
    };
    const started = this.clock.nowMs();
    const took = () => Math.max(0, this.clock.nowMs() - started);
    try {
      const answer = await postBytes(url, body, headers, { ...SEND_LIMITS, allowHosts: this.config.subscriptionAllowHosts });
      return { ok: true, status: answer.status, detail: null, durationMs: took() };
    } catch (error) {
      const status = error instanceof AssetFetchError ? (error.status ?? null) : null;
      return { ok: false, status, detail: failureDetail(error), durationMs: took() };
    }
  }
}

/**
 * The owner sees this: a fixed phrase per kind of failure, never the fetcher's message (it names
 * the operator's allow-list), what a host resolves to or which class of address that is
 * (internal DNS would leak through it), and nothing the receiver sent.
 */
function failureDetail(error: unknown): string {
  if (!(error instanceof AssetFetchError)) return 'the delivery failed';
  switch (error.reason) {
    case 'refused-address':
      return REFUSED_BY_POLICY;
    case 'refused-scheme':
    case 'bad-url':
      return 'refused URL: only https is delivered to';
    case 'status':
      return 'not a 2xx answer';
    case 'too-many-redirects':
      return 'a redirect: not followed';
    case 'too-large':
      return 'the answer was too large';
    case 'timeout':
      return 'timeout';
    case 'network':
      return networkDetail(error.cause);
    default:
      return 'the delivery failed';
  }
}

function networkDetail(cause: unknown): string {
  const code = (cause as { code?: unknown } | null | undefined)?.code;
  if (typeof code !== 'string') return 'connection failed';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'connection reset';
  // Told as a refused address: the difference would say which internal names exist.
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') return REFUSED_BY_POLICY;
  if (/CERT|TLS|SSL/.test(code)) return 'TLS handshake failed';
  return 'connection failed';
}
