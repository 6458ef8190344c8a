import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SystemClock } from '../../common/clock';
import type { AppConfig } from '../../config/config.types';
import { REFUSED_BY_POLICY, WebhookSender } from './webhook-sender';

describe('WebhookSender', () => {
  let server: Server;
  let port = 0;
  let requests = 0;
  const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
  const ANSWER = 'internal-answer-7f3c';
  const sender = (allowHosts: string[], fetchAllowHosts: string[] = []) =>
    new WebhookSender({ subscriptionAllowHosts: allowHosts, fetchAllowHosts } as unknown as AppConfig, new SystemClock());
  const send = (allowHosts: string[], url: string, fetchAllowHosts: string[] = []) =>
    sender(allowHosts, fetchAllowHosts).send(url, secret, 'evt_1', Buffer.from('{}'), 1_795_823_000);

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests += 1;
      req.resume();
      req.on('end', () => res.writeHead(req.url === '/down' ? 503 : 200).end(ANSWER));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends to a host in SUBSCRIPTION_ALLOW_HOSTS and answers its status and timing, none of its answer', async () => {
    const ok = await send([`127.0.0.1:${port}`], `http://127.0.0.1:${port}/hook`);
    expect(ok).toEqual({ ok: true, status: 200, detail: null, durationMs: expect.any(Number) });
    const down = await send([`127.0.0.1:${port}`], `http://127.0.0.1:${port}/down`);
    expect(down).toEqual({ ok: false, status: 503, detail: 'not a 2xx answer', durationMs: expect.any(Number) });
    expect(JSON.stringify([ok, down])).not.toContain(ANSWER);
  });

  it('does not take FETCH_ALLOW_HOSTS for a subscriber, sending nothing', async () => {
    const before = requests;
    const host = `127.0.0.1:${port}`;
    expect(await send([], `http://${host}/hook`, [host])).toMatchObject({
      ok: false,
      status: null,
      detail: 'refused URL: only https is delivered to',
    });
    expect(await send([], `https://${host}/hook`, [host])).toMatchObject({ ok: false, status: null, detail: REFUSED_BY_POLICY });
    expect(requests).toBe(before);
  });

  it('tells a network failure in generic words', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await send([`127.0.0.1:${closedPort}`], `http://127.0.0.1:${closedPort}/hook`)).toMatchObject({
      ok: false,
      status: null,
      detail: 'connection refused',
    });
  });

  it.each([
    ['a loopback address', () => `https://127.0.0.1:${port}/hook`],
    ['a local name', () => `https://localhost:${port}/hook`],
    ['a private address', () => 'https://10.1.2.3/hook'],
    ['a link-local address', () => 'https://169.254.169.254/latest'],
  ])('refuses %s without saying which kind of address it is', async (_name, url) => {
    const before = requests;
    const result = await send([], url());
    expect(result).toEqual({ ok: false, status: null, detail: REFUSED_BY_POLICY, durationMs: expect.any(Number) });
    expect(result.detail).not.toMatch(/loopback|private|local|link|127\.|10\.|169\./);
    expect(requests).toBe(before);
  });
});
