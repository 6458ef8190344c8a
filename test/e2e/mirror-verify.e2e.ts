import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AssetTooLargeError, type UpstreamReader, verifyUpstreamRelease } from '../../src/lib/mirror';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';

type Tamper = 'none' | 'signature' | 'asset' | 'longer-asset' | 'manifest' | 'replay' | 'unsigned-asset';

/**
 * The mirror's check of an upstream release, against a real registry on loopback and a small
 * upstream in front of it that replays its answers with one thing changed.
 */
describe('a mirror verifies what it copies from upstream', () => {
  let w: PublishWorld;
  let proxy: Server;
  let proxyUrl: string;
  let tamper: Tamper = 'none';

  /** A mirror's transport, over fetch: JSON, bytes, and a bounded streaming hash. */
  const reader: UpstreamReader = {
    async json(url) {
      const res = await fetch(url);
      if (!res.ok) throw new Error(`${url}: ${res.status}`);
      return res.json();
    },
    async bytes(url) {
      const res = await fetch(url);
      if (!res.ok) throw new Error(`${url}: ${res.status}`);
      return new Uint8Array(await res.arrayBuffer());
    },
    async assetDigest(url, maxBytes) {
      const res = await fetch(url);
      if (!res.ok || !res.body) throw new Error(`${url}: ${res.status}`);
      const hash = createHash('sha256');
      let size = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        size += chunk.length;
        if (size > maxBytes) throw new AssetTooLargeError(url, maxBytes);
        hash.update(chunk);
      }
      return { sha256: hash.digest('hex'), size };
    },
  };

  const flipLast = (text: string) => text.slice(0, -2) + (text.at(-2) === 'A' ? 'B' : 'A') + text.at(-1);

  beforeAll(async () => {
    w = await publishWorld();
    const { token } = await w.tokenFor('mirror-author', ['publish:*']);
    for (const version of ['1.0.0', '1.1.0']) {
      await w
        .push(token, 'mirrored', {
          manifest: manifestYaml({ name: 'mirrored', version }),
          manifestSource: 'plugin.yaml',
          version,
          assets: ['mirrored-linux-x64.tgz', 'mirrored.wasm'].map((name) => ({
            name,
            url: w.forge.asset(`/acme/mirrored/${version}/${name}`, { size: 2000 + name.length, seed: version.length }),
          })),
          repoUrl: `${w.forge.url}/acme/mirrored`,
        })
        .expect(201);
    }
    // Upstream as a mirror reads it, through a replaying server that can change one thing.
    proxy = createServer((req, res) => {
      void (async () => {
        let path = req.url ?? '/';
        if (tamper === 'replay') path = path.replace('/releases/1.1.0', '/releases/1.0.0');
        const upstream = await fetch(`${w.app.url}${path}`, {
          redirect: tamper === 'asset' || tamper === 'longer-asset' ? 'follow' : 'manual',
        });
        let body = Buffer.from(await upstream.arrayBuffer());
        const type = upstream.headers.get('content-type') ?? 'application/octet-stream';
        if (type.startsWith('application/json') && /\/releases\/[^/]+$/.test(path)) {
          const release = JSON.parse(body.toString('utf8'));
          for (const asset of release.assets) asset.url = asset.url.replace(w.app.url, proxyUrl);
          if (tamper === 'signature') release.integrity.jws = flipLast(release.integrity.jws);
          if (tamper === 'unsigned-asset') release.assets.push({ name: 'extra.bin', url: `${proxyUrl}/extra.bin`, size: 1, hashed: false });
          body = Buffer.from(JSON.stringify(release));
        }
        if (tamper === 'manifest' && path.endsWith('/manifest'))
          body = Buffer.from(body.toString('utf8').replace('"mirrored"', '"mirrored" '));
        if (tamper === 'asset' && path.includes('/assets/mirrored.wasm')) body[100] ^= 1;
        if (tamper === 'longer-asset' && path.includes('/assets/mirrored.wasm')) body = Buffer.concat([body, Buffer.from('more')]);
        const location = upstream.headers.get('location');
        res.writeHead(upstream.status, { 'content-type': type, ...(location ? { location } : {}) });
        res.end(body);
      })().catch((error: Error) => res.writeHead(500).end(error.message));
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });
  afterEach(() => {
    tamper = 'none';
  });
  afterAll(async () => {
    await new Promise((resolve) => proxy?.close(resolve));
    await w?.close();
  });

  it('accepts an untouched release: signature, manifest and every asset checked', async () => {
    const copied = await verifyUpstreamRelease(proxyUrl, 'mirrored', '1.1.0', reader);
    if (!copied.ok) throw new Error(copied.message);
    expect(copied.payload).toMatchObject({ slug: 'mirrored', version: '1.1.0' });
    expect(copied.assets.map((a) => a.name).sort()).toEqual(['mirrored-linux-x64.tgz', 'mirrored.wasm']);
    expect(copied.keySet.keys.map((k) => k.kid)).toContain(copied.kid);
    expect(createHash('sha256').update(copied.manifest).digest('hex')).toBe(copied.payload.manifest_sha256);
  });

  it.each<[Tamper, string]>([
    ['signature', 'SIGNATURE_INVALID'],
    ['replay', 'PAYLOAD_MISMATCH'],
    ['manifest', 'MANIFEST_MISMATCH'],
    ['asset', 'HASH_MISMATCH'],
    ['longer-asset', 'SIZE_MISMATCH'],
    ['unsigned-asset', 'ASSET_UNSIGNED'],
  ])('refuses a release whose upstream changed it (%s): %s', async (how, code) => {
    tamper = how;
    const refused = await verifyUpstreamRelease(proxyUrl, 'mirrored', '1.1.0', reader);
    expect(refused).toMatchObject({ ok: false, code });
    if (!refused.ok) expect(refused.message).toContain('mirrored@1.1.0');
  });

  it('throws (try again later) when upstream does not answer: not evidence against the release', async () => {
    await expect(verifyUpstreamRelease(proxyUrl, 'mirrored', '9.9.9', reader)).rejects.toThrow(/404/);
  });
});
