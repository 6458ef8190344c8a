import { createServer as createHttpServer, RequestListener, ServerResponse } from 'node:http';
import { AddressInfo, createServer as createNetServer, Server, Socket } from 'node:net';
import type { AssetFetchOptions } from '../asset-fetcher';
import type { LookupFunction } from '../fetch-target';

/** A server on 127.0.0.1 that counts what reaches it and can be torn down with its sockets. */
export interface LoopbackServer {
  port: number;
  url(path: string): string;
  /** TCP connections accepted so far. */
  readonly connections: number;
  /** HTTP requests received so far (0 for raw servers). */
  readonly requests: number;
  /** Resolves when every accepted connection has closed. */
  allClosed(): Promise<void>;
  close(): Promise<void>;
}

function track(server: Server, scheme: string, raw: boolean): Promise<LoopbackServer> {
  const sockets = new Set<Socket>();
  let connections = 0;
  let requests = 0;
  server.on('connection', (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    // A raw socket nobody reads never sees the client's FIN, so it would never close.
    if (raw) socket.resume();
  });
  if (!raw) server.on('request', () => requests++);
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        port,
        url: (path) => `${scheme}://127.0.0.1:${port}${path}`,
        get connections() {
          return connections;
        },
        get requests() {
          return requests;
        },
        allClosed: () =>
          Promise.all([...sockets].map((s) => new Promise((done) => (s.destroyed ? done(null) : s.once('close', done))))).then(
            () => undefined,
          ),
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

export function startHttpServer(handler: RequestListener): Promise<LoopbackServer> {
  return track(createHttpServer(handler), 'http', false);
}

/** For responses node:http would refuse to send (lying Content-Length, silence after accept). */
export function startRawServer(onConnection: (socket: Socket) => void): Promise<LoopbackServer> {
  return track(createNetServer(onConnection), 'http', true);
}

/** Byte i of every test asset; cheap to regenerate so a test can hash the same bytes itself. */
export function deterministicBytes(length: number, offset = 0): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  for (let i = 0; i < length; i++) bytes[i] = ((offset + i) * 131 + ((offset + i) >> 8)) & 0xff;
  return bytes;
}

const PATTERN_BLOCK = 64 * 1024;
const PATTERN = deterministicBytes(PATTERN_BLOCK);

/** Streams `size` deterministic bytes (repeating every 64 KiB) honouring backpressure; never buffers. */
export function streamPattern(res: ServerResponse, size: number): void {
  let sent = 0;
  const pump = () => {
    while (sent < size) {
      const n = Math.min(PATTERN_BLOCK, size - sent);
      sent += n;
      if (!res.write(n === PATTERN_BLOCK ? PATTERN : PATTERN.subarray(0, n))) return void res.once('drain', pump);
    }
    res.end();
  };
  pump();
}

/** The bytes `streamPattern` sends, in memory: only for sizes a test can afford to hold. */
export function patternBytes(size: number): Buffer {
  return Buffer.concat(Array.from({ length: Math.ceil(size / PATTERN_BLOCK) }, () => PATTERN)).subarray(0, size);
}

/** Resolves every name to the given addresses, recording what was asked. */
export function fixedLookup(...addresses: string[]): LookupFunction & { hostnames: string[] } {
  const hostnames: string[] = [];
  const lookup: LookupFunction = (hostname, _options, callback) => {
    hostnames.push(hostname);
    setImmediate(() =>
      callback(
        null,
        addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      ),
    );
  };
  return Object.assign(lookup, { hostnames });
}

/** Generous limits for tests; each test narrows the one it is about. */
export function testFetchOptions(overrides: Partial<AssetFetchOptions> = {}): AssetFetchOptions {
  return {
    budgetBytes: 1024 * 1024,
    maxBytes: 64 * 1024 * 1024,
    allowHosts: [],
    connectTimeoutMs: 5_000,
    idleTimeoutMs: 5_000,
    totalTimeoutMs: 20_000,
    maxRedirects: 5,
    lookup: fixedLookup('127.0.0.1'),
    ...overrides,
  };
}
