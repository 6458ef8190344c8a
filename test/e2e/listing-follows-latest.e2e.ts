/**
 * What the catalogue shows of a plugin (list item and detail: name, description, tags, kind,
 * extension values, metadata, README and its search text) follows one release: the latest by the
 * spec's rule (highest SemVer, not yanked, not a prerelease unless only prereleases are live),
 * never merely the last one ingested. Publishing a backport or a prerelease leaves it alone;
 * yank, unyank and release deletion move it, in the same transaction as the change.
 */
import request from 'supertest';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { userWithSession } from '../support/sessions';

/** A word only the README at this tag contains, so search shows which README is indexed. */
const WORD: Record<string, string> = {
  'v2.0.0': 'zebrafish',
  'v1.9.1': 'albatross',
  'v3.0.0-beta.1': 'pelican',
  'v0.1.0-alpha.1': 'walrus',
  'v0.2.0-alpha.2': 'narwhal',
};

describe('catalogue fields follow the latest release', () => {
  let w: PublishWorld;
  let token: string;
  let admin: string;

  const publish = (slug: string, version: string, fields: Record<string, unknown>) =>
    w
      .push(token, slug, {
        manifest: manifestYaml({ name: slug, version, ...fields }),
        manifestSource: 'plugin.yaml',
        version: `v${version}`,
        assets: [{ name: `${slug}.zip`, url: w.forge.asset(`/acme/${slug}/${version}/${slug}.zip`, { size: 64 }) }],
        repoUrl: `${w.forge.url}/acme/${slug}`,
      })
      .expect(201);
  const yank = (slug: string, version: string, undo = false) =>
    request(w.app.url).post(`/api/publish/${slug}/yank`).set('Authorization', `Bearer ${token}`).send({ version, undo }).expect(200);
  const detail = async (slug: string) => (await request(w.app.url).get(`/api/plugins/${slug}`).expect(200)).body;
  const listItem = async (slug: string) => {
    const items = (await request(w.app.url).get('/api/plugins?limit=100&sort=name').expect(200)).body.plugins as { slug: string }[];
    return items.find((item) => item.slug === slug);
  };
  const found = async (word: string) =>
    ((await request(w.app.url).get(`/api/plugins?search=${word}`).expect(200)).body.plugins as { slug: string }[]).map((p) => p.slug);
  const row = async (slug: string) =>
    (await w.app.database.dataSource.query(`SELECT description, tags, kind, extensions, metadata FROM plugin WHERE slug = $1`, [slug]))[0];

  /** What the catalogue shows, in list and detail, matches this release's manifest and README. */
  async function expectShows(slug: string, version: string) {
    const expected = { description: `release ${version}`, tags: [`t-${version}`], extensions: { stars: Number(version.split('.')[0]) } };
    expect(await listItem(slug)).toMatchObject(expected);
    const shown = await detail(slug);
    expect(shown).toMatchObject({ ...expected, metadata: { version, description: `release ${version}` } });
    expect(shown.readmeHtml).toContain(WORD[`v${version}`]);
    expect(await found(WORD[`v${version}`])).toContain(slug);
    for (const [tag, word] of Object.entries(WORD)) if (tag !== `v${version}`) expect(await found(word)).not.toContain(slug);
  }

  beforeAll(async () => {
    w = await publishWorld();
    token = (await w.tokenFor('listing-author', ['publish:*', 'yank:*'])).token;
    admin = (await userWithSession(w.app, 'listing-admin', 'admin')).jwt;
    await request(w.app.url)
      .put('/api/admin/extension-fields')
      .set('Authorization', `Bearer ${admin}`)
      .send({ fields: [{ key: 'stars', type: 'number' }] })
      .expect(200);
    w.forge.route('GET', '/acme/:repo/raw/:tag/README.md', (_req, res, params) => {
      res.writeHead(200, { 'Content-Type': 'text/markdown' });
      res.end(`# ${params.repo}\n\nThe README at ${params.tag} mentions ${WORD[params.tag] ?? 'nothing'}.`);
    });
  });
  afterAll(() => w?.close());

  const fields = (version: string) => ({ description: `release ${version}`, tags: [`t-${version}`], stars: Number(version.split('.')[0]) });

  it('keeps 2.0.0 after a backport (1.9.1) and a prerelease (3.0.0-beta.1); yank moves it to 1.9.1, unyank back', async () => {
    await publish('follows', '2.0.0', fields('2.0.0'));
    await expectShows('follows', '2.0.0');
    await publish('follows', '1.9.1', fields('1.9.1'));
    await publish('follows', '3.0.0-beta.1', fields('3.0.0-beta.1'));
    await expectShows('follows', '2.0.0');
    expect(await detail('follows')).toMatchObject({ latestVersion: '2.0.0', latestPrerelease: '3.0.0-beta.1' });

    await yank('follows', '2.0.0');
    await expectShows('follows', '1.9.1');
    await yank('follows', '2.0.0', true);
    await expectShows('follows', '2.0.0');
    // Yanking a release that is not the one shown changes nothing shown.
    const before = await row('follows');
    await yank('follows', '1.9.1');
    expect(await row('follows')).toEqual(before);
    await yank('follows', '1.9.1', true);
  });

  it('moves with an admin release delete', async () => {
    await publish('deleted', '1.9.1', fields('1.9.1'));
    await publish('deleted', '2.0.0', fields('2.0.0'));
    await expectShows('deleted', '2.0.0');
    await request(w.app.url).delete('/api/admin/plugins/deleted/releases/2.0.0').set('Authorization', `Bearer ${admin}`).expect(204);
    await expectShows('deleted', '1.9.1');
  });

  it('shows the highest prerelease while only prereleases exist, and the first stable release once there is one', async () => {
    await publish('early', '0.2.0-alpha.2', fields('0.2.0-alpha.2'));
    await publish('early', '0.1.0-alpha.1', fields('0.1.0-alpha.1'));
    await expectShows('early', '0.2.0-alpha.2');
    await yank('early', '0.2.0-alpha.2');
    await expectShows('early', '0.1.0-alpha.1');
    await yank('early', '0.2.0-alpha.2', true);
    await publish('early', '1.9.1', fields('1.9.1'));
    await expectShows('early', '1.9.1');
  });

  it('keeps showing the highest release when every release is yanked', async () => {
    await publish('all-yanked', '1.9.1', fields('1.9.1'));
    await publish('all-yanked', '2.0.0', fields('2.0.0'));
    await yank('all-yanked', '2.0.0');
    await yank('all-yanked', '1.9.1');
    const shown = await detail('all-yanked');
    expect(shown).toMatchObject({ description: 'release 2.0.0', latestVersion: null, metadata: { version: '2.0.0' } });
  });
});
