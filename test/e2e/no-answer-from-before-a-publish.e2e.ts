/**
 * Once a publish has committed, no path answers from before it: not the
 * response cache's hits, not the catalogue lane, not the controllers. The response cache used to
 * be emptied only after the commit (by the write interceptor on the push path, by the delivery
 * worker on the webhook path), and in between a hit replayed the previous release's answer while
 * a caller with credentials, or a miss, was already answered the new one: the same client could
 * see the new release and then the old one again. The reads here are made at that very moment
 * (when the cache is told to empty itself, after the commit), on both databases.
 */
import request from 'supertest';
import { ReleaseResignWorker } from '../../src/trust/integrity/release-resign-worker';
import { ReleaseResigner } from '../../src/trust/integrity/release-resigner';
import { ResponseCache } from '../../src/platform/response-cache/response-cache';
import { eventually } from '../support/eventually';
import { webhookHeaders } from '../support/fake-forge';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { userWithSession } from '../support/sessions';
import { releaseEvent } from '../support/webhook-world';

const SLUG = 'no-going-back';

interface Answer {
  via: string;
  status: number;
  cache: string | undefined;
  latestVersion: string | undefined;
  etag: string | undefined;
  /** A release's signing key (on a release's answer). */
  kid?: string;
}

describe('no answer from before a publish once it has committed', () => {
  let w: PublishWorld;
  let token: string;
  let secret: string;
  const repoUrl = () => `${w.forge.url}/acme/${SLUG}`;

  /** The manifest, and one asset, served by the fake forge for `version`. */
  const releaseFiles = (version: string) => {
    const base = `/downloads/acme/${SLUG}/${version}`;
    w.forge.file(`${base}/plugin.yaml`, manifestYaml({ name: SLUG, version, description: 'never steps back' }), 'text/yaml');
    return [
      { name: 'plugin.yaml', url: `${w.forge.url}${base}/plugin.yaml` },
      { name: `${SLUG}.zip`, url: w.forge.asset(`${base}/${SLUG}.zip`, { size: 100, seed: version.length }) },
    ];
  };

  const push = (version: string) =>
    w
      .push(token, SLUG, {
        manifest: manifestYaml({ name: SLUG, version, description: 'never steps back' }),
        manifestSource: 'plugin.yaml',
        version,
        assets: releaseFiles(version).slice(1),
        repoUrl: repoUrl(),
      })
      .expect(201);

  beforeAll(async () => {
    w = await publishWorld();
    const owner = await w.tokenFor('steady-owner', ['publish:*']);
    token = owner.token;
    await push('0.1.0');
    secret = (
      await request(w.app.url).post(`/api/plugins/${SLUG}/webhook-secret`).set('Authorization', `Bearer ${owner.jwt}`).send({}).expect(200)
    ).body.webhookSecret;
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(() => w?.close());

  const read = async (via: 'lane' | 'express', path = `/api/plugins/${SLUG}`): Promise<Answer> => {
    let req = request(w.app.url).get(path);
    // An unknown token reads as anonymous, past the lane and the cache, as any caller with credentials.
    if (via === 'express') req = req.set('Authorization', 'Bearer not-a-token');
    const res = await req;
    return {
      via,
      status: res.status,
      cache: res.headers['x-cache'],
      latestVersion: res.body.latestVersion,
      etag: res.headers.etag,
      kid: res.body.integrity && JSON.parse(Buffer.from(res.body.integrity.jws.split('.')[0], 'base64url').toString()).kid,
    };
  };

  /** Reads the anonymous answer until the cache replays it, so the publish has a stored answer to retire. */
  const cached = async (version: string, path?: string) => {
    for (let i = 0; i < 5; i++) {
      const answer = await read('lane', path);
      if (answer.cache === 'hit') return path ? answer : expect(answer.latestVersion).toBe(version);
    }
    throw new Error('the answer was never stored');
  };

  /** The reads made when the cache is next told to empty itself: after the commit, before the cache is emptied that way. */
  const readAtInvalidation = (path?: string): Answer[] => {
    const cache = w.app.app.get(ResponseCache);
    const invalidate = () => ResponseCache.prototype.invalidate.call(cache);
    const seen: Answer[] = [];
    jest.spyOn(cache, 'invalidate').mockImplementationOnce(async () => {
      seen.push(await read('express', path), await read('lane', path), await read('lane', path));
      return invalidate();
    });
    return seen;
  };

  it('a CI push: read between its commit and the interceptor emptying the cache', async () => {
    await cached('0.1.0');
    const seen = readAtInvalidation();
    await push('0.2.0');
    expect(seen).toHaveLength(3);
    expect(seen.map((answer) => [answer.via, answer.status, answer.latestVersion])).toEqual([
      ['express', 200, '0.2.0'],
      ['lane', 200, '0.2.0'],
      ['lane', 200, '0.2.0'],
    ]);
    expect(new Set(seen.map((answer) => answer.etag)).size).toBe(1);
  });

  it('a webhook delivery: read between its commit and the worker emptying the cache', async () => {
    await cached('0.2.0');
    const seen = readAtInvalidation();
    const event = releaseEvent({ kind: 'github', repoUrl: repoUrl() }, '0.3.0', releaseFiles('0.3.0'));
    await request(w.app.url)
      .post('/api/webhooks/release')
      .set(webhookHeaders('github', secret, event.body, event.event))
      .send(event.body.toString('utf8'))
      .expect(202);
    // The server's own worker takes the delivery at once (it is told of it).
    await eventually(async () => (seen.length === 3 ? true : null), 'the delivery worker emptying the cache', 30_000);
    expect(seen.map((answer) => [answer.via, answer.status, answer.latestVersion])).toEqual([
      ['express', 200, '0.3.0'],
      ['lane', 200, '0.3.0'],
      ['lane', 200, '0.3.0'],
    ]);
    expect(new Set(seen.map((answer) => answer.etag)).size).toBe(1);
  });

  it('a key rotation: read right after a re-signing batch commits', async () => {
    const path = `/api/plugins/${SLUG}/releases/0.3.0`;
    // The batch is run here, so the reads come right after its commit; the server's worker stays out.
    await w.app.app.get(ReleaseResignWorker).stop();
    const admin = await userWithSession(w.app, 'window-admin', 'admin');
    const rotate = () => request(w.app.url).post('/api/admin/keys/rotate').set('Authorization', `Bearer ${admin.jwt}`).expect(200);
    // The second rotation drains the first key, whose releases are then re-signed.
    await rotate();
    const rotated = await rotate();
    expect(rotated.body.pending).toBeGreaterThan(0);
    const before = (await cached('0.3.0', path))!;
    expect(before.kid).not.toBe(rotated.body.kid);
    await expect(w.app.app.get(ReleaseResigner).resignBatch(100, 'worker')).resolves.toMatchObject({ resigned: rotated.body.pending });
    const answers = [await read('express', path), await read('lane', path), await read('lane', path)];
    expect(answers.map((answer) => [answer.via, answer.status, answer.kid])).toEqual([
      ['express', 200, rotated.body.kid],
      ['lane', 200, rotated.body.kid],
      ['lane', 200, rotated.body.kid],
    ]);
    expect(new Set(answers.map((answer) => answer.etag)).size).toBe(1);
    // The release now names its resign entry; the freshness statement of `latest` names a log that holds it.
    const latest = (await request(w.app.url).get(`/api/plugins/${SLUG}/releases/latest`).expect(200)).body;
    const statement = JSON.parse(Buffer.from(latest.freshness.split('.')[1], 'base64url').toString());
    expect(statement.tree_size).toBeGreaterThan(latest.log_index);
  });
});
