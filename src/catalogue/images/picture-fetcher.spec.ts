import { deterministicBytes, type LoopbackServer, startHttpServer } from '../../common/fetch/testing/loopback-servers';
import type { AppConfig } from '../../config/config.types';
import { SCREENSHOT_PLAN } from './image-encoder';
import type { ImageFetchPolicy } from './image-fetch-policy';
import { PictureFetcher, RELEASE_PICTURES_AT_ONCE } from './picture-fetcher';
import { picture } from './testing/pictures';

const MiB = 1024 * 1024;

describe('PictureFetcher, release pictures', () => {
  let server: LoopbackServer;
  let pictures: Buffer[];
  let fetcher: PictureFetcher;

  beforeAll(async () => {
    // Four different pictures of one byte length: PNGs padded after their end (decoders ignore the rest).
    const pngs = await Promise.all([1, 2, 3, 4].map((i) => picture('png', 40 + i * 10, 30)));
    const length = Math.max(...pngs.map((png) => png.length)) + 64 * 1024;
    pictures = pngs.map((png) => Buffer.concat([png, deterministicBytes(length - png.length)]));
    server = await startHttpServer((req, res) => {
      const body = pictures[Number(/\/(\d)\.png$/.exec(req.url ?? '')?.[1])];
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(body.length) }).end(body);
    });
    const policy = {
      options: async () => ({
        maxBytes: 10 * MiB,
        allowHosts: [`127.0.0.1:${server.port}`],
        connectTimeoutMs: 5_000,
        idleTimeoutMs: 5_000,
        totalTimeoutMs: 20_000,
        maxRedirects: 0,
      }),
    } as unknown as ImageFetchPolicy;
    fetcher = new PictureFetcher(policy, {
      pictureMemoryBytes: 64 * MiB,
      pictureMemoryBytesPerUser: 32 * MiB,
      pictureWaitMs: 30_000,
    } as AppConfig);
  });
  afterAll(() => server.close());

  it(`downloads one release picture after another into the same ${RELEASE_PICTURES_AT_ONCE} source buffers, each decoded right`, async () => {
    const allocate = jest.spyOn(Buffer, 'allocUnsafe');
    try {
      const hold = fetcher.hold('user:1');
      const patience = fetcher.patience();
      const encoded = await Promise.all(
        pictures.map((_, i) => fetcher.fetchInTurn(server.url(`/${i}.png`), SCREENSHOT_PLAN, hold, patience)),
      );
      // Each picture is its own, whatever buffer it was downloaded into.
      expect(encoded.map((picture) => picture.source.width)).toEqual([50, 60, 70, 80]);
      const sources = allocate.mock.calls.filter(([size]) => size === pictures[0].length);
      // Without reuse, one buffer per picture: 4.
      expect(sources).toHaveLength(RELEASE_PICTURES_AT_ONCE);
      hold.release();
      expect(fetcher.budget.held).toBe(0);
    } finally {
      allocate.mockRestore();
    }
  });
});
