import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AssetFetchError } from './fetch-error';
import { postBytes } from './post-bytes';

describe('postBytes', () => {
  let server: Server;
  let host = '';
  const seen: { method?: string; length?: string; body: string; path?: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ method: req.method, length: req.headers['content-length'], body: Buffer.concat(chunks).toString(), path: req.url });
        if (req.url === '/moved') return res.writeHead(307, { location: '/elsewhere' }).end();
        if (req.url === '/down') return res.writeHead(503).end('busy');
        res.writeHead(202, { 'content-type': 'text/plain' }).end('x'.repeat(1000));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const options = (allowHosts: string[]) => ({
    allowHosts,
    maxBytes: 4096,
    connectTimeoutMs: 2000,
    idleTimeoutMs: 2000,
    totalTimeoutMs: 4000,
  });
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => error as AssetFetchError,
    );

  it('POSTs the body with its length and keeps none of the answer but its status', async () => {
    const answer = await postBytes(`http://${host}/hook`, Buffer.from('{"a":1}'), { 'x-test': 'yes' }, options([host]));
    expect(answer).toEqual({ url: `http://${host}/hook`, status: 202, contentType: 'text/plain' });
    expect(seen.at(-1)).toEqual({ method: 'POST', length: '7', body: '{"a":1}', path: '/hook' });
  });

  it('follows no redirect and reports a non-2xx with its status', async () => {
    const before = seen.length;
    expect(await failure(postBytes(`http://${host}/moved`, Buffer.from('{}'), {}, options([host])))).toMatchObject({
      reason: 'too-many-redirects',
    });
    expect(seen.slice(before).map((s) => s.path)).toEqual(['/moved']);
    expect(await failure(postBytes(`http://${host}/down`, Buffer.from('{}'), {}, options([host])))).toMatchObject({
      reason: 'status',
      status: 503,
    });
  });

  it('refuses loopback, private and metadata addresses unless the host is allowed, sending nothing', async () => {
    const before = seen.length;
    expect(await failure(postBytes(`http://${host}/hook`, Buffer.from('{}'), {}, options([])))).toMatchObject({ reason: 'refused-scheme' });
    expect(await failure(postBytes(`https://${host}/hook`, Buffer.from('{}'), {}, options([])))).toMatchObject({
      reason: 'refused-address',
    });
    expect(await failure(postBytes('https://10.0.0.8/hook', Buffer.from('{}'), {}, options([])))).toMatchObject({
      reason: 'refused-address',
    });
    expect(await failure(postBytes('https://169.254.169.254/latest', Buffer.from('{}'), {}, options([])))).toMatchObject({
      reason: 'refused-address',
    });
    expect(seen.length).toBe(before);
  });
});
