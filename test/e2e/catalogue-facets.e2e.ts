import request from 'supertest';
import { userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

interface Seed {
  slug: string;
  category: string;
  kind: string;
  tags: string[];
  extensions?: Record<string, unknown>;
  description: string;
}

const SEEDS: Seed[] = [
  {
    slug: 'markdown-preview',
    description: 'Render markdown',
    category: 'Editors',
    kind: 'tool',
    tags: ['markdown', 'preview'],
    extensions: { stars: 5, platforms: ['linux', 'mac'], beta: false },
  },
  {
    slug: 'markdown',
    description: 'The markdown plugin',
    category: 'Editors',
    kind: 'tool',
    tags: ['markdown'],
    extensions: { stars: '5', label: 'x' },
  },
  {
    slug: 'dark-theme',
    description: 'A dark colour scheme',
    category: 'Looks',
    kind: 'theme',
    tags: ['dark'],
    extensions: { stars: 3, platforms: ['linux'] },
  },
  {
    slug: 'light-theme',
    description: 'A light colour scheme',
    category: 'Looks',
    kind: 'theme',
    tags: ['light'],
    extensions: { beta: true },
  },
  {
    slug: 'markdown-theme',
    description: 'Markdown colours',
    category: 'Looks',
    kind: 'theme',
    tags: ['markdown', 'dark'],
    extensions: { stars: 5, beta: true },
  },
];

type Facets = Record<string, Array<{ value: string; count: number }>>;

describe('GET /api/plugins?facets=1', () => {
  let app: TestApp;
  let admin: string;
  const get = (query: string, headers: Record<string, string> = {}) => request(app.url).get(`/api/plugins${query}`).set(headers);
  const facets = async (query: string): Promise<Facets> => (await get(query).expect(200)).body.facets as Facets;

  beforeAll(async () => {
    app = await startTestApp();
    admin = (await userWithSession(app, 'root', 'admin')).jwt;
    await request(app.url)
      .put('/api/admin/extension-fields')
      .set({ Authorization: `Bearer ${admin}` })
      .send({
        fields: [
          { key: 'stars', type: 'number', enum: [1, 2, 3, 4, 5] },
          { key: 'platforms', type: 'string[]', enum: ['linux', 'mac', 'windows'] },
          { key: 'beta', type: 'boolean' },
          { key: 'label', type: 'string' },
        ],
      })
      .expect(200);
    for (const seed of SEEDS) {
      await app.database.dataSource.query(
        `INSERT INTO plugin (slug, name, repo_url, repo_identity, description, category, kind, tags, extensions, latest_version, latest_release_at)
         VALUES ($1, $1, $2, $2, $3, $4, $5, $6::jsonb, $7::jsonb, '1.0.0', now())`,
        [
          seed.slug,
          `https://git.example.org/o/${seed.slug}`,
          seed.description,
          seed.category,
          seed.kind,
          JSON.stringify(seed.tags),
          seed.extensions ? JSON.stringify(seed.extensions) : null,
        ],
      );
    }
    // Counts come from the in-memory index: wait for its first build.
    const deadline = Date.now() + 15_000;
    while ((await facets('?facets=1')) === undefined) {
      if (Date.now() > deadline) throw new Error('the catalogue index was not built in time');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  afterAll(() => app?.close());

  it('counts kind, category, tags and the fields declared enum or boolean over the whole catalogue', async () => {
    const res = await get('?facets=1').expect(200);
    expect(res.body.total).toBe(5);
    expect(res.body.facets).toEqual({
      kind: [
        { value: 'theme', count: 3 },
        { value: 'tool', count: 2 },
      ],
      category: [
        { value: 'Looks', count: 3 },
        { value: 'Editors', count: 2 },
      ],
      tags: [
        { value: 'markdown', count: 3 },
        { value: 'dark', count: 2 },
        { value: 'light', count: 1 },
        { value: 'preview', count: 1 },
      ],
      'ext.beta': [
        { value: 'true', count: 2 },
        { value: 'false', count: 1 },
      ],
      'ext.platforms': [
        { value: 'linux', count: 2 },
        { value: 'mac', count: 1 },
      ],
      'ext.stars': [
        { value: '5', count: 3 },
        { value: '3', count: 1 },
      ],
    });
    // A string field without an enum is no facet.
    expect(res.body.facets['ext.label']).toBeUndefined();
  });

  it('counts each dimension over the search and the other filters: the selected value keeps its count beside its siblings', async () => {
    const res = await get('?facets=true&search=markdown&kind=theme').expect(200);
    expect(res.body.total).toBe(1);
    const counted = res.body.facets as Facets;
    // kind over "markdown" alone: what clicking tool instead would give.
    expect(counted.kind).toEqual([
      { value: 'tool', count: 2 },
      { value: 'theme', count: 1 },
    ]);
    // The others over "markdown" and kind=theme.
    expect(counted.category).toEqual([{ value: 'Looks', count: 1 }]);
    expect(counted.tags).toEqual([
      { value: 'dark', count: 1 },
      { value: 'markdown', count: 1 },
    ]);
    expect(counted['ext.stars']).toEqual([{ value: '5', count: 1 }]);
    // An extension filter is a dimension's own filter too; a value nothing carries is listed when selected.
    expect((await facets('?facets=1&ext.stars=5&kind=widget'))['ext.stars']).toEqual([{ value: '5', count: 0 }]);
    expect((await facets('?facets=1&ext.stars=5'))['ext.stars']).toEqual([
      { value: '5', count: 3 },
      { value: '3', count: 1 },
    ]);
  });

  it('answers without facets unless asked, and with facets=0 or false', async () => {
    for (const query of ['', '?facets=0', '?facets=false', '?search=markdown'])
      expect((await get(query).expect(200)).body).not.toHaveProperty('facets');
  });

  it('reads filter values as the browse page does: trimmed, a blank one is no filter', async () => {
    const spaced = await get('?facets=1&kind=%20theme%20&tag=&ext.stars=%205').expect(200);
    const plain = await get('?facets=1&kind=theme&ext.stars=5').expect(200);
    expect(spaced.body).toEqual(plain.body);
    expect(spaced.body.total).toBe(1);
    expect((await get('?category=%20%20').expect(200)).body.total).toBe(5);
  });

  it('refuses any other facets value with a 400 naming the field, on both paths', async () => {
    for (const headers of [{}, { Authorization: `Bearer ${admin}` }] as Record<string, string>[]) {
      const res = await get('?facets=yes', headers).expect(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.errors).toEqual([expect.objectContaining({ path: '/facets' })]);
    }
    const repeated = await get('?facets=1&facets=1').expect(400);
    expect(repeated.body.errors).toEqual([expect.objectContaining({ path: '/facets' })]);
  });

  it('answers the same through the catalogue lane and through Express (a caller with credentials)', async () => {
    const query = '?facets=1&search=mark&category=Looks';
    const lane = await get(query).expect(200);
    const express = await get(query, { Authorization: `Bearer ${admin}` }).expect(200);
    expect(lane.text).toBe(express.text);
    // Cached answers are keyed by the whole query: with and without facets are two answers.
    expect((await get('?search=mark&category=Looks').expect(200)).body).not.toHaveProperty('facets');
    expect((await get(query).expect(200)).text).toBe(lane.text);
  });

  it('follows a change of the declared fields at once', async () => {
    await request(app.url)
      .put('/api/admin/extension-fields')
      .set({ Authorization: `Bearer ${admin}` })
      .send({
        fields: [
          { key: 'stars', type: 'number' },
          { key: 'label', type: 'string', enum: ['x', 'y'] },
        ],
      })
      .expect(200);
    const counted = await facets('?facets=1');
    expect(Object.keys(counted).sort()).toEqual(['category', 'ext.label', 'kind', 'tags']);
    expect(counted['ext.label']).toEqual([{ value: 'x', count: 1 }]);
  });

  it('follows a change made elsewhere (another instance, plain SQL) with the next page, not after its 5 s copy ages', async () => {
    await facets('?facets=1');
    // No admin call on this instance: only settings_version (moved by the kind table's trigger) tells.
    await app.database.dataSource.query(
      `INSERT INTO kind (key, label, extension_fields) VALUES ('gadget', 'Gadget', '[{"key":"platforms","type":"string[]","enum":["linux","mac"]}]'::jsonb)`,
    );
    const counted = await facets('?facets=1&limit=5');
    expect(Object.keys(counted).sort()).toEqual(['category', 'ext.label', 'ext.platforms', 'kind', 'tags']);
    expect(counted['ext.platforms']).toEqual([
      { value: 'linux', count: 2 },
      { value: 'mac', count: 1 },
    ]);
    await app.database.dataSource.query(`DELETE FROM kind WHERE key = 'gadget'`);
    expect(Object.keys(await facets('?facets=1&limit=6')).sort()).toEqual(['category', 'ext.label', 'kind', 'tags']);
  });

  /**
   * Another connection holds the change log while `work` runs a second instance started with
   * `env`: its first build reads the log before anything else, and waits. `free()` lets it go on.
   */
  async function whileIndexBuilds(
    env: Record<string, string>,
    work: (building: TestApp, free: () => Promise<void>) => Promise<void>,
  ): Promise<void> {
    const holder = app.database.dataSource.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    let building: TestApp | undefined;
    try {
      await holder.query('LOCK TABLE catalogue_change IN ACCESS EXCLUSIVE MODE');
      building = await startTestApp(env, app.testDatabase);
      await work(building, () => holder.commitTransaction());
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
      await building?.close();
    }
  }

  // A second instance shares the database only on PostgreSQL (the embedded engine has one owner).
  (process.env.DATABASE_URL ? it : it.skip)(
    'leaves facets out while the index is being built, and no cache keeps that answer (a second instance, PostgreSQL)',
    async () => {
      // While the build waits, its SQL page (plugin rows only) answers, once each page waited this long.
      await whileIndexBuilds({ CATALOGUE_INDEX_WAIT_MS: '200' }, async (building, free) => {
        const ask = (query: string, headers: Record<string, string> = {}) => request(building.url).get(`/api/plugins${query}`).set(headers);
        for (let n = 0; n < 3; n++) {
          const asked = Date.now();
          const res = await ask('?facets=1&sort=name').expect(200);
          expect(Date.now() - asked).toBeGreaterThanOrEqual(190);
          expect(res.body).not.toHaveProperty('facets');
          expect(res.body.total).toBe(5);
          expect(res.headers['cache-control']).toBe('no-store');
          expect(res.headers['x-cache']).not.toBe('hit');
        }
        const express = await ask('?facets=1&sort=name', { Authorization: `Bearer ${admin}` }).expect(200);
        expect(express.body).not.toHaveProperty('facets');
        expect(express.headers['cache-control']).toBe('no-store');
        // Without facets the SQL page is the same answer as ever: shared.
        expect((await ask('?sort=name').expect(200)).headers['cache-control']).toBe('public, max-age=30');
        await free();
        // Its build goes on once the change log is free: the same question now gets counts.
        const deadline = Date.now() + 15_000;
        let built = await ask('?facets=1&sort=name').expect(200);
        while (!built.body.facets) {
          if (Date.now() > deadline) throw new Error("the second instance's catalogue index was not built in time");
          await new Promise((resolve) => setTimeout(resolve, 50));
          built = await ask('?facets=1&sort=name').expect(200);
        }
        expect(built.body.facets.kind).toHaveLength(2);
        expect(built.headers['cache-control']).toBe('public, max-age=30');
      });
    },
  );

  (process.env.DATABASE_URL ? it : it.skip)(
    'answers a search asked while the index is being built from the index, once it is built (a second instance, PostgreSQL)',
    async () => {
      await whileIndexBuilds({}, async (building, free) => {
        const asked = Date.now();
        const answer = request(building.url).get('/api/plugins?facets=1&sort=name');
        // The page waits for the build (CATALOGUE_INDEX_WAIT_MS, 10 s by default): it goes on once the change log is free.
        setTimeout(() => void free(), 500);
        const res = await answer.expect(200);
        expect(Date.now() - asked).toBeGreaterThanOrEqual(450);
        expect(res.body.total).toBe(5);
        expect(res.body.facets.kind).toHaveLength(2);
        expect(res.headers['cache-control']).toBe('public, max-age=30');
      });
    },
  );
});
