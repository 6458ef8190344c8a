import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Response } from 'express';
import { clientGoneSignal } from './client-gone';

describe('clientGoneSignal', () => {
  let server: Server;
  let url: string;
  let signals: Promise<AbortSignal>[];
  let answer: (respond: (body: string) => void) => void;

  beforeEach(async () => {
    signals = [];
    server = createServer((_req, res) => {
      const signal = clientGoneSignal(res as unknown as Response);
      signals.push(new Promise((resolve) => res.once('close', () => setImmediate(() => resolve(signal)))));
      answer((body) => res.end(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('stays quiet for a response that was sent', async () => {
    answer = (respond) => respond('done');
    expect(await (await fetch(url)).text()).toBe('done');
    expect((await signals[0]).aborted).toBe(false);
  });

  it('aborts when the client closes the connection first', async () => {
    let arrived: () => void = () => undefined;
    const waiting = new Promise<void>((resolve) => (arrived = resolve));
    answer = () => arrived();
    const client = request(url);
    client.on('error', () => undefined);
    client.end();
    await waiting;
    client.destroy();
    expect((await signals[0]).aborted).toBe(true);
  });
});
