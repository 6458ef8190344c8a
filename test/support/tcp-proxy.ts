import { createServer, connect, type Server, type Socket } from 'node:net';

export type ProxyTarget = { host: string; port: number } | { path: string };

/**
 * A loopback TCP proxy a test can cut and restore, standing in for a database server going
 * down and coming back without touching the machine's real server.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: ProxyTarget) {}

  async start(): Promise<number> {
    const server = createServer((client) => {
      const upstream = 'path' in this.target ? connect(this.target.path) : connect(this.target.port, this.target.host);
      this.sockets.add(client).add(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        this.sockets.delete(client);
        this.sockets.delete(upstream);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as { port: number }).port;
    return this.port;
  }

  /** Refuses new connections and cuts every open one, as a stopped server would. */
  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
