import request from 'supertest';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';
import { userWithSession } from '../support/sessions';

/** A README per language at the release tag, as GitHub's raw URLs serve them. */
export const README_TEXT: Record<string, string> = {
  'README.md': '# Aurora in English\n\nA calm theme for late nights.',
  'README.en.md': '# Aurora in English\n\nA calm theme for late nights.',
  'README.de.md': '# Aurora auf Deutsch\n\nEin ruhiges Farbschema für lange Nächte.',
};

export const HOSTILE_DESCRIPTION = `<script>alert("pwned")</script><img src=x onerror=alert(1)> & "quotes"`;

export interface CatalogueWorld {
  w: PublishWorld;
  admin: { jwt: string };
  /** Publishes `slug` at `version` with these manifest fields; assets by file name. */
  publish(slug: string, version: string, fields?: Record<string, unknown>, assets?: string[]): Promise<void>;
  yank(slug: string, version: string, reason: string): Promise<void>;
}

/**
 * A registry with a `theme` kind declaring two fields, and a fake forge serving READMEs in two
 * languages and repository stats for every acme/* repository.
 */
export async function catalogueWorld(): Promise<CatalogueWorld> {
  const w = await publishWorld();
  const token = (await w.tokenFor('web-author', ['publish:*', 'yank:*'])).token;
  const admin = await userWithSession(w.app, 'web-admin', 'admin');
  w.forge.route('GET', '/acme/:repo/raw/:tag/:file', (_req, res, params) => {
    res.writeHead(200, { 'Content-Type': 'text/markdown' });
    res.end(README_TEXT[params.file] ?? `# ${params.repo}`);
  });
  w.forge.route('GET', '/acme/:repo/raw/:tag/docs/:file', (_req, res, params) => {
    res.writeHead(200, { 'Content-Type': 'text/markdown' });
    res.end(README_TEXT[params.file] ?? `# ${params.file}`);
  });
  w.forge.json('GET', '/api/v3/repos/acme/:repo', {
    stargazers_count: 1234,
    forks_count: 56,
    subscribers_count: 7,
    pushed_at: '2026-11-01T10:00:00Z',
    homepage: null,
  });
  await request(w.app.url)
    .post('/api/admin/kinds')
    .set('Authorization', `Bearer ${admin.jwt}`)
    .send({
      key: 'theme',
      label: 'Themes',
      description: 'Colour schemes for the editor',
      extensionFields: [
        { key: 'dark', type: 'boolean' },
        { key: 'mood', type: 'string', enum: ['calm', 'loud'] },
      ],
    })
    .expect(201);
  return {
    w,
    admin,
    async publish(slug, version, fields = {}, assets = [`${slug}.zip`]) {
      await w
        .push(token, slug, {
          manifest: manifestYaml({ name: slug, version, ...fields }),
          manifestSource: 'plugin.yaml',
          version,
          assets: assets.map((name) => ({ name, url: w.forge.asset(`/acme/${slug}/${version}/${name}`, { size: 2048 }) })),
          repoUrl: `${w.forge.url}/acme/${slug}`,
        })
        .expect(201);
    },
    async yank(slug, version, reason) {
      await request(w.app.url)
        .post(`/api/publish/${slug}/yank`)
        .set('Authorization', `Bearer ${token}`)
        .send({ version, reason })
        .expect(200);
    },
  };
}

/**
 * The plugin most tests look at: a theme with a README in English and German, three platforms.
 * Its icon and screenshot are on the fake forge (loopback, allowed by the fetch policy), which
 * answers 404 for them: ingest never resolves a name through DNS, and the release is published
 * without pictures (a warning), as the pages here expect. test/e2e/pictures.e2e.ts tests pictures.
 */
export async function publishAurora(world: CatalogueWorld, versions = ['1.0.0', '1.1.0', '1.2.0']): Promise<void> {
  const pictures = auroraPictures(world);
  const fields = {
    description: 'A calm dark theme for late nights',
    kind: 'theme',
    category: 'Looks',
    tags: ['dark', 'calm'],
    license: 'MIT',
    homepage: 'https://aurora.example/',
    documentation_url: 'https://aurora.example/docs',
    support: { issues_url: 'https://aurora.example/issues', email: 'help@aurora.example' },
    screenshots: [{ url: pictures.screenshot, caption: 'The editor at night', alt: 'Dark editor' }],
    min_runtime_version: '>=2.0.0',
    icon: pictures.icon,
    readmes: { en: 'docs/README.en.md', de: 'docs/README.de.md' },
    dark: true,
    mood: 'calm',
  };
  for (const version of versions)
    await world.publish('aurora', version, fields, ['aurora-linux-x64.zip', 'aurora-darwin-arm64.zip', 'aurora-windows-x64.zip']);
  if (versions.includes('1.1.0')) await world.yank('aurora', '1.1.0', 'Broke the status bar');
}

/** Where aurora's icon and screenshot are: on the fake forge, which has no such files. */
export function auroraPictures(world: CatalogueWorld): { icon: string; screenshot: string } {
  return { icon: `${world.w.forge.url}/pictures/aurora/icon.png`, screenshot: `${world.w.forge.url}/pictures/aurora/shot.png` };
}
