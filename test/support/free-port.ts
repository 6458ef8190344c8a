import { createServer, type AddressInfo } from 'node:net';

/** A loopback port that was free a moment ago, for servers that must know their port before they start. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A loopback port held by a placeholder listener until `release()`: for a server that must know its
 * port long before it listens (an app built in seconds), so nothing else on the machine (another
 * test worker, a CI step) takes the port meanwhile. Release it just before listening.
 */
export function reservePort(): Promise<{ port: number; release(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ port, release: () => new Promise<void>((done) => server.close(() => done())) });
    });
  });
}
