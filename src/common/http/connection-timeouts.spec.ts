import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { setConnectionTimeouts } from './connection-timeouts';

/** Node checks these timeouts on an interval (30 s by default); a short one lets the test see them act. */
async function serve(): Promise<{ server: Server; port: number }> {
  const server = createServer({ connectionsCheckingInterval: 50 }, (_req, res) => res.end('ok'));
  setConnectionTimeouts(server, { httpRequestTimeoutMs: 1000, httpHeadersTimeoutMs: 500, httpKeepAliveTimeoutMs: 10_000 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

/** Writes `text` on one connection and collects what comes back until `until` matches or the server closes. */
function exchange(port: number) {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  let closed = false;
  socket.on('data', (chunk) => (received += chunk.toString('latin1')));
  socket.on('close', () => (closed = true));
  socket.on('error', () => undefined);
  return {
    send: (text: string) => socket.write(text),
    received: () => received,
    closed: () => closed,
    destroy: () => socket.destroy(),
  };
}

describe('setConnectionTimeouts', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => ({ server, port } = await serve()));
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("does not count a kept-alive connection's idle time against the headers or request timeout", async () => {
    const client = exchange(port);
    try {
      client.send('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
      await sleep(1_500);
      client.send('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
      await sleep(100);
      expect(client.closed()).toBe(false);
      expect(client.received().match(/HTTP\/1\.1 200 OK/g)).toHaveLength(2);
    } finally {
      client.destroy();
    }
  });

  it('still answers 408 to a client that takes too long over its headers', async () => {
    const client = exchange(port);
    try {
      client.send('GET / HTTP/1.1\r\nHost: x\r\n');
      await sleep(1_000);
      expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
      expect(client.closed()).toBe(true);
    } finally {
      client.destroy();
    }
  });
});
