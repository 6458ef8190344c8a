import request from 'supertest';
import { verifyRelease } from '../../src/lib/integrity';
import { assetChunks } from '../support/fake-forge';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { userWithSession } from '../support/sessions';

describe('admin: kinds, extension fields and plugins', () => {
  let w: PublishWorld;
  let admin: string;
  let adminId: string;
  let alice: { token: string; userId: string; jwt: string };
  const as = (jwt: string) => ({ Authorization: `Bearer ${jwt}` });
  const audits = async (action: string) =>
    (await w.app.database.dataSource.query('SELECT slug, details FROM audit_entry WHERE action = $1 ORDER BY created_at', [action])) as {
      slug: string | null;
      details: Record<string, unknown>;
    }[];

  const body = (slug: string, version: string, fields: Record<string, unknown> = {}) => ({
    manifest: manifestYaml({ name: slug, version, ...fields }),
    manifestSource: 'plugin.yaml',
    version,
    assets: [{ name: `${slug}.zip`, url: w.forge.asset(`/acme/${slug}/${version}/${slug}.zip`, { size: 500, seed: version.length }) }],
    repoUrl: `${w.forge.url}/acme/${slug}`,
  });

  beforeAll(async () => {
    w = await publishWorld();
    const root = await userWithSession(w.app, 'root', 'admin');
    admin = root.jwt;
    adminId = root.user.id;
    alice = await w.tokenFor('alice', ['publish:*']);
  });
  afterAll(() => w?.close());

  describe('refuses everyone but admins', () => {
    const routes: [string, string][] = [
      ['get', '/api/admin/kinds'],
      ['post', '/api/admin/kinds'],
      ['put', '/api/admin/kinds/theme'],
      ['delete', '/api/admin/kinds/theme'],
      ['get', '/api/admin/extension-fields'],
      ['put', '/api/admin/extension-fields'],
      ['get', '/api/admin/plugins/some-plugin'],
      ['post', '/api/admin/plugins/some-plugin/verify'],
      ['post', '/api/admin/plugins/some-plugin/unverify'],
      ['post', '/api/admin/plugins/some-plugin/feature'],
      ['post', '/api/admin/plugins/some-plugin/unfeature'],
      ['delete', '/api/admin/plugins/some-plugin/releases/1.0.0'],
      ['post', '/api/admin/plugins/some-plugin/owners'],
      ['get', '/api/admin/keys'],
      ['post', '/api/admin/keys/rotate'],
      ['get', '/api/admin/audit'],
    ];
    it.each(routes)('%s %s: 401 anonymous, 403 for a user, 401 for a publisher token', async (method, path) => {
      const call = () => (request(w.app.url) as unknown as Record<string, (p: string) => request.Test>)[method](path);
      await call().send({}).expect(401);
      await call().set(as(alice.jwt)).send({}).expect(403);
      await call().set(as(alice.token)).send({}).expect(401);
    });
  });

  describe('kinds', () => {
    it('creates, lists (disabled ones to admins only), replaces and audits with before and after', async () => {
      await request(w.app.url)
        .post('/api/admin/kinds')
        .set(as(admin))
        .send({ key: 'theme', label: 'Themes', extensionFields: [{ key: 'dark', type: 'boolean' }] })
        .expect(201);
      await request(w.app.url).post('/api/admin/kinds').set(as(admin)).send({ key: 'legacy', label: 'Legacy', enabled: false }).expect(201);
      await request(w.app.url).post('/api/admin/kinds').set(as(admin)).send({ key: 'theme', label: 'Again' }).expect(409);

      const publicKeys = (await request(w.app.url).get('/api/kinds').expect(200)).body.kinds.map((k: { key: string }) => k.key);
      expect(publicKeys).toEqual(['theme']);
      const adminKinds = (await request(w.app.url).get('/api/admin/kinds').set(as(admin)).expect(200)).body.kinds;
      expect(adminKinds.map((k: { key: string; enabled: boolean }) => [k.key, k.enabled])).toEqual([
        ['legacy', false],
        ['theme', true],
      ]);

      const replaced = await request(w.app.url)
        .put('/api/admin/kinds/theme')
        .set(as(admin))
        .send({ label: 'Colour themes', description: 'Looks', enabled: true, extensionFields: [] })
        .expect(200);
      expect(replaced.body).toMatchObject({ key: 'theme', label: 'Colour themes', description: 'Looks', extensionFields: [] });
      const [created] = (await audits('kind.create')).filter((a) => a.details.key === 'theme');
      expect(created.details).toMatchObject({ before: null, after: { label: 'Themes' } });
      const [updated] = await audits('kind.update');
      expect(updated.details).toMatchObject({
        key: 'theme',
        before: { label: 'Themes' },
        after: { label: 'Colour themes', description: 'Looks' },
      });
    });

    it('PUT changes only what its body names: the spec body {label, description} keeps a disabled kind disabled and its fields', async () => {
      const fields = [{ key: 'palette', type: 'string', maxLength: 20 }];
      await request(w.app.url)
        .post('/api/admin/kinds')
        .set(as(admin))
        .send({ key: 'retired', label: 'Retired', description: 'Old', enabled: false, extensionFields: fields })
        .expect(201);
      const edited = await request(w.app.url)
        .put('/api/admin/kinds/retired')
        .set(as(admin))
        .send({ label: 'Retired kinds', description: 'Older' })
        .expect(200);
      expect(edited.body).toMatchObject({
        key: 'retired',
        label: 'Retired kinds',
        description: 'Older',
        enabled: false,
        extensionFields: fields,
      });
      const [row] = await w.app.database.dataSource.query(
        `SELECT label, description, enabled, extension_fields FROM kind WHERE key = 'retired'`,
      );
      expect(row).toEqual({ label: 'Retired kinds', description: 'Older', enabled: false, extension_fields: fields });
      const publicKeys = (await request(w.app.url).get('/api/kinds').expect(200)).body.kinds.map((k: { key: string }) => k.key);
      expect(publicKeys).not.toContain('retired');

      // A field left out keeps its value; a field named changes, null clears the description.
      await request(w.app.url).put('/api/admin/kinds/retired').set(as(admin)).send({ description: null }).expect(200);
      const [cleared] = await w.app.database.dataSource.query(`SELECT label, description, enabled FROM kind WHERE key = 'retired'`);
      expect(cleared).toEqual({ label: 'Retired kinds', description: null, enabled: false });
      const bad = await request(w.app.url)
        .put('/api/admin/kinds/retired')
        .set(as(admin))
        .send({ label: null, enabled: null, extensionFields: null })
        .expect(400);
      expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['/enabled', '/extensionFields', '/label']);

      const updates = (await audits('kind.update')).filter((a) => a.details.key === 'retired');
      expect(updates).toHaveLength(2);
      expect(updates[0].details).toMatchObject({
        before: { label: 'Retired', description: 'Old', enabled: false, extensionFields: fields },
        after: { label: 'Retired kinds', description: 'Older', enabled: false, extensionFields: fields },
      });
    });

    it('keeps the key immutable (400), says 404 for an unknown kind, and names bad declarations (422)', async () => {
      const moved = await request(w.app.url).put('/api/admin/kinds/theme').set(as(admin)).send({ key: 'skin', label: 'x' }).expect(400);
      expect(moved.body.errors).toEqual([expect.objectContaining({ path: '/key' })]);
      await request(w.app.url).put('/api/admin/kinds/nope').set(as(admin)).send({ label: 'x' }).expect(404);
      await request(w.app.url).delete('/api/admin/kinds/nope').set(as(admin)).expect(404);
      const bad = await request(w.app.url)
        .post('/api/admin/kinds')
        .set(as(admin))
        .send({
          key: 'widget',
          label: 'W',
          extensionFields: [
            { key: 'name', type: 'string' },
            { key: 'n', type: 'number', enum: ['x'] },
          ],
        })
        .expect(422);
      expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['/extensionFields/0/key', '/extensionFields/1/enum/0']);
    });

    it('refuses a disabled or unknown kind at publish (422), and a deleted kind stays on its plugins', async () => {
      const disabled = await w.push(alice.token, 'old-skin', body('old-skin', '1.0.0', { kind: 'legacy' })).expect(422);
      expect(disabled.body.errors[0]).toMatchObject({ path: '/kind', message: expect.stringContaining('disabled') });
      await w.push(alice.token, 'odd-kind', body('odd-kind', '1.0.0', { kind: 'gadget' })).expect(422);

      await w.push(alice.token, 'dark-skin', body('dark-skin', '1.0.0', { kind: 'theme' })).expect(201);
      await request(w.app.url).delete('/api/admin/kinds/theme').set(as(admin)).expect(204);
      const [row] = await w.app.database.dataSource.query(`SELECT kind FROM plugin WHERE slug = 'dark-skin'`);
      expect(row.kind).toBe('theme');
      const [deleted] = await audits('kind.delete');
      expect(deleted.details).toMatchObject({ key: 'theme', after: null, before: { label: 'Colour themes' } });
    });

    it('declares global extension fields that the next ingest validates and keeps', async () => {
      await request(w.app.url)
        .put('/api/admin/extension-fields')
        .set(as(admin))
        .send({ fields: [{ key: 'stars', type: 'number', required: false }] })
        .expect(200);
      expect((await request(w.app.url).get('/api/admin/extension-fields').set(as(admin)).expect(200)).body.fields).toEqual([
        { key: 'stars', type: 'number', required: false },
      ]);
      await w.push(alice.token, 'starry', body('starry', '1.0.0', { stars: 'many' })).expect(422);
      await w.push(alice.token, 'starry', body('starry', '1.0.0', { stars: 5 })).expect(201);
      const [row] = await w.app.database.dataSource.query(`SELECT extensions FROM plugin WHERE slug = 'starry'`);
      expect(row.extensions).toEqual({ stars: 5 });
      expect((await audits('extension_fields.update'))[0].details).toMatchObject({ before: [], after: [{ key: 'stars', type: 'number' }] });
    });
  });

  describe('plugins', () => {
    beforeAll(async () => {
      await w.push(alice.token, 'curated', body('curated', '1.0.0')).expect(201);
      await w.push(alice.token, 'curated', { ...body('curated', '1.1.0'), repoUrl: undefined }).expect(201);
    });

    it('verifies and unverifies, showing who verified it to admins', async () => {
      const verified = await request(w.app.url).post('/api/admin/plugins/curated/verify').set(as(admin)).expect(200);
      expect(verified.body).toMatchObject({ slug: 'curated', verified: true, verifiedBy: adminId, verifiedAt: expect.any(Number) });
      const unverified = await request(w.app.url).post('/api/admin/plugins/curated/unverify').set(as(admin)).expect(200);
      expect(unverified.body).toMatchObject({ verified: false, verifiedBy: null, verifiedAt: null });
      expect((await audits('plugin.verify')).map((a) => a.slug)).toEqual(['curated']);
      expect((await audits('plugin.unverify')).map((a) => a.slug)).toEqual(['curated']);
      await request(w.app.url).post('/api/admin/plugins/no-such/verify').set(as(admin)).expect(404);
    });

    it('features and unfeatures', async () => {
      expect((await request(w.app.url).post('/api/admin/plugins/curated/feature').set(as(admin)).expect(200)).body.featured).toBe(true);
      expect((await request(w.app.url).post('/api/admin/plugins/curated/unfeature').set(as(admin)).expect(200)).body.featured).toBe(false);
      expect(await audits('plugin.feature')).toHaveLength(1);
      expect(await audits('plugin.unfeature')).toHaveLength(1);
    });

    it('adds, transfers and never removes the last owner', async () => {
      const bob = await userWithSession(w.app, 'bob');
      const added = await request(w.app.url)
        .post('/api/admin/plugins/curated/owners')
        .set(as(admin))
        .send({ add: [bob.user.id] })
        .expect(200);
      expect(added.body.owners.map((o: { login: string }) => o.login).sort()).toEqual(['alice', 'bob']);
      await request(w.app.url)
        .post('/api/admin/plugins/curated/owners')
        .set(as(admin))
        .send({ add: ['00000000-0000-4000-8000-000000000000'] })
        .expect(400);
      const moved = await request(w.app.url)
        .post('/api/admin/plugins/curated/owners')
        .set(as(admin))
        .send({ transfer: alice.userId })
        .expect(200);
      expect(moved.body.owners.map((o: { login: string }) => o.login)).toEqual(['alice']);
      await request(w.app.url)
        .post('/api/admin/plugins/curated/owners')
        .set(as(admin))
        .send({ remove: [alice.userId] })
        .expect(409);
      expect((await audits('plugin.owners_change')).length).toBe(2);
    });

    it('changes owners while the owner publishes, with neither deadlocking (every call answers, none 500)', async () => {
      const carol = await userWithSession(w.app, 'carol');
      await w.push(alice.token, 'busy-owners', body('busy-owners', '1.0.0')).expect(201);
      const pushes = Array.from({ length: 8 }, (_, i) =>
        w.push(alice.token, 'busy-owners', { ...body('busy-owners', `3.0.${i}`), repoUrl: undefined }),
      );
      const changes = Array.from({ length: 8 }, (_, i) =>
        request(w.app.url)
          .post('/api/admin/plugins/busy-owners/owners')
          .set(as(admin))
          .send(i % 2 ? { remove: [carol.user.id] } : { add: [carol.user.id] }),
      );
      const results = await Promise.all([...pushes, ...changes]);
      expect(results.map((r) => r.status).filter((status) => status >= 500)).toEqual([]);
      expect(results.slice(0, 8).map((r) => r.status)).toEqual(Array(8).fill(201));
      expect(results.slice(8).map((r) => r.status)).toEqual(Array(8).fill(200));
    });

    it('deletes a release, moves latest, and a re-publish of that version is signed afresh', async () => {
      const old = (await request(w.app.url).get('/api/plugins/curated/releases/1.1.0').expect(200)).body;
      await request(w.app.url).delete('/api/admin/plugins/curated/releases/1.1.0').set(as(admin)).expect(204);
      await request(w.app.url).get('/api/plugins/curated/releases/1.1.0').expect(404);
      expect((await request(w.app.url).get('/api/plugins/curated/releases/latest').expect(200)).body.version).toBe('1.0.0');
      expect((await audits('release.delete'))[0]).toMatchObject({ slug: 'curated', details: { version: '1.1.0' } });

      const republished = { ...body('curated', '1.1.0'), repoUrl: undefined };
      republished.assets = [{ name: 'curated.zip', url: w.forge.asset('/acme/curated/1.1.0-again/curated.zip', { size: 777, seed: 3 }) }];
      await w.push(alice.token, 'curated', republished).expect(201);
      const fresh = (await request(w.app.url).get('/api/plugins/curated/releases/1.1.0').expect(200)).body;
      expect(fresh.integrity.jws).not.toBe(old.integrity.jws);
      const verified = await verifyRelease({
        release: fresh,
        keys: { fetchKeySet: async () => (await request(w.app.url).get('/.well-known/registry-key.json')).body },
        expected: { slug: 'curated', version: '1.1.0' },
        asset: { name: 'curated.zip', bytes: Buffer.concat([...assetChunks({ size: 777, seed: 3 })]) },
      });
      expect(verified.ok).toBe(true);
    });
  });
});
