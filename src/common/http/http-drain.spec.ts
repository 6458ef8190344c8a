import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { drainHttp } from './http-drain';

function listen(handler: Parameters<typeof createServer>[1]): Promise<Server> {
  const server = createServer(handler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const portOf = (server: Server) => (server.address() as AddressInfo).port;

function get(port: number, agent?: Agent): Promise<{ status: number | null; error: string | null }> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? null, error: null }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ status: null, error: error.code ?? error.message }));
    req.end();
  });
}

describe('drainHttp', () => {
  it('closes idle keep-alive connections at once and resolves drained', async () => {
    const server = await listen((_req, res) => res.end('ok'));
    const agent = new Agent({ keepAlive: true });
    expect(await get(portOf(server), agent)).toEqual({ status: 200, error: null });
    await expect(drainHttp(server, 600_000)).resolves.toBe('drained');
    agent.destroy();
  });

  it('lets a request under way finish, and refuses new connections meanwhile', async () => {
    let answer: () => void = () => undefined;
    let arrived: () => void = () => undefined;
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    const server = await listen((_req, res) => {
      answer = () => res.end('late');
      arrived();
    });
    const port = portOf(server);
    const pending = get(port);
    await inFlight;
    const drained = drainHttp(server, 600_000);
    expect((await get(port)).error).toBe('ECONNREFUSED');
    answer();
    expect(await pending).toEqual({ status: 200, error: null });
    await expect(drained).resolves.toBe('drained');
  });

  it('cuts what is still running when the grace is over', async () => {
    let arrived: () => void = () => undefined;
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    const server = await listen(() => arrived());
    const pending = get(portOf(server));
    await inFlight;
    await expect(drainHttp(server, 0)).resolves.toBe('cut');
    expect((await pending).error).toBe('ECONNRESET');
  });
});
