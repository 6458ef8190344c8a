import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A registry that shows one client another view: a proxy on loopback in front of a real registry
 * that passes everything through except the answers a test rewrites.
 */
export type Rewrite = (upstream: Buffer, request: IncomingMessage) => Buffer | Promise<Buffer>;

/**
 * Forwards every request to the registry; a rewrite registered for a path prefix replaces the
 * answer's body, and a path under a `missing` prefix is answered 404 (not served at all).
 */
export class RewritingProxy {
  readonly rewrites = new Map<string, Rewrite>();
  readonly missing = new Set<string>();
  /** The paths asked, in order. */
  readonly asked: string[] = [];
  private server: Server | undefined;
  url = '';

  constructor(private readonly upstream: string) {}

  async start(): Promise<this> {
    this.server = createServer((request, response) => void this.forward(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  private async forward(request: IncomingMessage, response: ServerResponse): Promise<void> {
    this.asked.push(request.url!);
    if ([...this.missing].some((prefix) => request.url!.startsWith(prefix))) {
      response.writeHead(404, { 'Content-Type': 'text/html' }).end('<h1>Not Found</h1>');
      return;
    }
    const answer = await fetch(`${this.upstream}${request.url}`, { method: request.method, redirect: 'manual' });
    let body: Buffer = Buffer.from(await answer.arrayBuffer());
    const rewrite = [...this.rewrites].find(([prefix]) => request.url!.startsWith(prefix))?.[1];
    if (rewrite && answer.ok) body = await rewrite(body, request);
    const headers: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'etag'].includes(name)) headers[name] = value;
    });
    response.writeHead(answer.status, headers);
    response.end(request.method === 'HEAD' ? undefined : body);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}
