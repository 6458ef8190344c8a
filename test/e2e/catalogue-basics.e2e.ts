import request from 'supertest';
import { startTestApp, type TestApp } from '../support/test-app';

describe('kinds and the manifest schema', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
    await app.database.dataSource.query(
      `INSERT INTO kind (key, label, description, enabled, extension_fields) VALUES
        ('theme', 'Themes', 'Colour schemes', true, '[{"key":"dark","type":"boolean"}]'),
        ('legacy', 'Legacy', null, false, '[]')`,
    );
  });
  afterAll(() => app?.close());

  it('lists enabled kinds in the shape `registry validate --kinds` reads', async () => {
    const res = await request(app.url).get('/api/kinds').expect(200);
    expect(res.body).toEqual({
      kinds: [
        {
          key: 'theme',
          label: 'Themes',
          description: 'Colour schemes',
          extensionFields: [{ key: 'dark', type: 'boolean' }],
          requireProvenance: false,
        },
      ],
      extensionFields: [],
    });
  });

  it('serves the manifest JSON Schema with the declared extension fields', async () => {
    const res = await request(app.url).get('/schemas/manifest.json').expect(200);
    expect(res.headers['content-type']).toMatch(/application\/schema\+json/);
    const schema = JSON.parse(res.text);
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe(`${app.config.baseUrl}/schemas/manifest.json`);
    expect(schema.required).toEqual(expect.arrayContaining(['name', 'version']));
    expect(JSON.stringify(schema)).toContain('"dark"');
  });
});
