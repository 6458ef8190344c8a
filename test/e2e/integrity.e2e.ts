/**
 * Release integrity over HTTP: the served key set, and a release signed by the app verified with
 * the library's own verifier against that key set, across two rotations.
 */
import request from 'supertest';
import { IntegrityService } from '../../src/trust/integrity/integrity.service';
import { KeysService } from '../../src/trust/integrity/keys.service';
import { verifyRelease, type KeySet, type ReleaseRecord, type SignedPayload } from '../../src/lib/integrity';
import { ASSET_BYTES, demoPayload } from '../../src/lib/integrity/testdata/signing-fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

const KEY_SET_PATH = '/.well-known/registry-key.json';

function releaseRecord(payload: SignedPayload, jws: string): ReleaseRecord {
  return {
    slug: payload.slug,
    version: payload.version,
    assets: payload.assets.map((asset) => ({ name: asset.name, url: `/downloads/${asset.name}`, size: asset.size })),
    integrity: { jws, assets: payload.assets },
  };
}

describe('integrity over HTTP', () => {
  let app: TestApp;
  let keySetFetches = 0;

  /** A client's key-set source: fetched over HTTP from the running app, and counted. */
  const keySource = () => ({
    fetchKeySet: async (): Promise<KeySet> => {
      keySetFetches++;
      const response = await fetch(`${app.url}${KEY_SET_PATH}`);
      if (!response.ok) throw new Error(`key set answered ${response.status}`);
      return (await response.json()) as KeySet;
    },
  });

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('serves the key set: the current key, public members only, cacheable for 5 minutes', async () => {
    const response = await request(app.url).get(KEY_SET_PATH).expect(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    expect(Object.keys(response.body)).toEqual(['keys']);
    expect(response.body.keys).toHaveLength(1);
    const [key] = response.body.keys;
    expect(Object.keys(key).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x']);
    expect(key).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(key.x).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(key.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [current] = await app.app.get(KeysService).list();
    expect(key.kid).toBe(current!.kid);
  });

  it('documents the key set in the OpenAPI document', async () => {
    const document = (await request(app.url).get('/openapi/json').expect(200)).body;
    const operation = document.paths[KEY_SET_PATH]?.get;
    expect(operation).toBeDefined();
    expect(operation.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/KeySetDto');
    expect(document.components.schemas.PublicJwkDto.required).toEqual(expect.arrayContaining(['kid', 'kty', 'crv', 'x', 'alg', 'use']));
  });

  it('verifies a signed release against the served key set until its key leaves the set', async () => {
    const integrity = app.app.get(IntegrityService);
    const keys = app.app.get(KeysService);
    const payload = demoPayload();
    const signed = await integrity.signRelease(payload);
    const keyA = signed.kid;
    expect((await request(app.url).get(KEY_SET_PATH)).body.keys.map((key: { kid: string }) => key.kid)).toEqual([keyA]);
    const release = releaseRecord(payload, signed.jws);
    const expected = { slug: payload.slug, version: payload.version };
    const asset = { name: 'demo.zip', bytes: ASSET_BYTES };

    const fresh = await verifyRelease({ release, keys: keySource(), expected, asset });
    expect(fresh).toMatchObject({ ok: true, kid: keyA, asset: { name: 'demo.zip', size: ASSET_BYTES.length } });

    // First rotation: A is previous, still in the set, so the release still verifies.
    const first = await keys.rotate({ userId: null });
    expect(first.previousKid).toBe(keyA);
    const afterOne = (await request(app.url).get(KEY_SET_PATH).expect(200)).body.keys.map((key: { kid: string }) => key.kid);
    expect(afterOne).toEqual([first.kid, keyA]);
    await expect(verifyRelease({ release, keys: keySource(), expected, asset })).resolves.toMatchObject({ ok: true, kid: keyA });
    // New releases are signed with the new current key.
    expect((await integrity.signRelease(payload)).kid).toBe(first.kid);

    // Second rotation: A retires and leaves the set; the verifier refreshes once, then gives up.
    const second = await keys.rotate({ userId: null });
    // (This release was never stored, so A signed nothing in the database and retires at once.)
    expect(second.retiredKids).toEqual([keyA]);
    const afterTwo = (await request(app.url).get(KEY_SET_PATH).expect(200)).body;
    expect(afterTwo.keys.map((key: { kid: string }) => key.kid)).toEqual([second.kid, first.kid]);
    keySetFetches = 0;
    const stale = await verifyRelease({ release, keys: keySource(), expected, asset });
    expect(stale).toMatchObject({ ok: false, code: 'KID_UNKNOWN' });
    expect(keySetFetches).toBe(2);
  });

  it('never serves a private member, however many rotations happen', async () => {
    await app.app.get(KeysService).rotate({ userId: null });
    const response = await request(app.url).get(KEY_SET_PATH).expect(200);
    expect(response.body.keys).toHaveLength(2);
    for (const key of response.body.keys) expect(key).not.toHaveProperty('d');
    expect(response.text).not.toMatch(/"d"\s*:/);
  });
});
