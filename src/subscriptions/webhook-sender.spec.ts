import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppConfig } from '../config/config.types';
import { REFUSED_BY_POLICY, WebhookSender } from './webhook-sender';

describe('WebhookSender', () => {
  let server: Server;
  let port = 0;
  let requests = 0;
  const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
  const sender = (allowHosts: string[]) => new WebhookSender({ fetchAllowHosts: allowHosts } as unknown as AppConfig);
  const send = (allowHosts: string[], url: string) => sender(allowHosts).send(url, secret, 'evt_1', Buffer.from('{}'), 1_795_823_000);

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests += 1;
      req.resume();
      req.on('end', () => res.writeHead(200).end('thanks'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends to an allowed host', async () => {
    expect(await send([`127.0.0.1:${port}`], `http://127.0.0.1:${port}/hook`)).toEqual({ ok: true, status: 200, detail: 'thanks' });
  });

  it.each([
    ['a loopback address', () => `https://127.0.0.1:${port}/hook`],
    ['a local name', () => `https://localhost:${port}/hook`],
    ['a private address', () => 'https://10.1.2.3/hook'],
    ['a link-local address', () => 'https://169.254.169.254/latest'],
  ])('refuses %s without saying which kind of address it is', async (_name, url) => {
    const before = requests;
    const result = await send([], url());
    expect(result).toEqual({ ok: false, status: null, detail: REFUSED_BY_POLICY });
    expect(result.detail).not.toMatch(/loopback|private|local|link|127\.|10\.|169\./);
    expect(requests).toBe(before);
  });
});
