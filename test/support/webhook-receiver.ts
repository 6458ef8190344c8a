import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A webhook receiver on 127.0.0.1 that records every request and answers each with the next
 * status queued for its path in `statuses` (200 once they run out).
 */
export class WebhookReceiver {
  readonly received: ReceivedHook[] = [];
  readonly statuses = new Map<string, number[]>();
  /** The body of every answer, when set (a secret a test looks for in what the registry says). */
  answer: string | null = null;
  private server: Server | null = null;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.received.push({ path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        const status = this.statuses.get(req.url ?? '/')?.shift() ?? 200;
        res.writeHead(status, { 'content-type': 'text/plain' }).end(this.answer ?? (status < 300 ? 'thanks' : 'not now'));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  get host(): string {
    return new URL(this.url).host;
  }

  /** The `webhook-*` headers of a received request, as the verifier wants them. */
  static signatureHeaders(hook: ReceivedHook): Record<string, string> {
    return {
      'webhook-id': String(hook.headers['webhook-id']),
      'webhook-timestamp': String(hook.headers['webhook-timestamp']),
      'webhook-signature': String(hook.headers['webhook-signature']),
    };
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
