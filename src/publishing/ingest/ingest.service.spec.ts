/**
 * The pipeline on its own, with its real collaborators on the test database: no HTTP, no token.
 * This is how the release webhook will call it, from a stored job.
 */
import { FakeForge } from '../../../test/support/fake-forge';
import { manifestYaml } from '../../../test/support/publishing';
import { startTestApp, type TestApp } from '../../../test/support/test-app';
import { DomainError } from '../../common/errors/domain-error';
import { PluginsRepository } from '../../catalogue/plugins/plugins.repository';
import { ReleasesRepository } from '../../catalogue/plugins/releases.repository';
import { UsersRepository } from '../../platform/users/users.repository';
import { IngestService } from './ingest.service';
import type { IngestRequest } from './ingest.types';

describe('IngestService', () => {
  let app: TestApp;
  let forge: FakeForge;
  let ingest: IngestService;
  let ownerId: string;

  beforeAll(async () => {
    forge = await new FakeForge().start();
    app = await startTestApp({ FETCH_ALLOW_HOSTS: `127.0.0.1:${new URL(forge.url).port}` });
    ingest = app.app.get(IngestService);
    ownerId = (await new UsersRepository(app.database.dataSource).createLocal({ login: 'pipeline-owner', email: null, role: 'user' })).id;
  });
  afterAll(async () => {
    await app?.close();
    await forge?.stop();
  });

  const request = (slug: string, version: string, target: IngestRequest['target']): IngestRequest => ({
    slug,
    version,
    manifestText: manifestYaml({ name: slug, version: version.replace(/^v/, '') }),
    manifestFileName: 'plugin.yaml',
    assets: [{ name: `${slug}-linux-arm64.tgz`, url: forge.asset(`/${slug}/${version}.tgz`, { size: 1234, seed: 7 }) }],
    attestation: null,
    source: 'webhook',
    actor: { userId: null, ip: null },
    publisher: null,
    target,
  });

  it('takes plain data (a stored job survives a JSON round trip) and claims, then updates by plugin id', async () => {
    const claim = request('piped', 'v1.0.0', {
      claim: { repoUrl: `${forge.url}/o/piped`, repoIdentity: 'o/piped', repoVerified: false, ownerId },
    });
    const first = await ingest.ingest(JSON.parse(JSON.stringify(claim)) as IngestRequest);
    expect(first).toEqual({ slug: 'piped', version: '1.0.0', claimed: true, warnings: expect.any(Array) });

    const plugin = (await new PluginsRepository(app.database.dataSource).findBySlug('piped'))!;
    const second = await ingest.ingest(request('piped', '1.1.0', { pluginId: plugin.id }));
    expect(second.claimed).toBe(false);
    const releases = new ReleasesRepository(app.database.dataSource);
    const stored = await releases.listForPlugin(plugin.id);
    expect(stored.map((r) => [r.version, r.source])).toEqual([
      ['1.1.0', 'webhook'],
      ['1.0.0', 'webhook'],
    ]);
    expect(stored[0].assets[0]).toMatchObject({ size: 1234, hashed: true, os: 'linux', arch: 'arm64' });
    expect((await releases.findLatest(plugin.id))?.version).toBe('1.1.0');
  });

  it('refuses a version already published before doing any network work', async () => {
    const plugin = (await new PluginsRepository(app.database.dataSource).findBySlug('piped'))!;
    const before = forge.requests.length;
    const failure = await ingest.ingest(request('piped', '1.1.0', { pluginId: plugin.id })).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DomainError);
    expect(failure).toMatchObject({ kind: 'conflict', code: 'version-exists' });
    expect(forge.requests.length).toBe(before);
  });

  it('leaves nothing behind when an asset cannot be fetched', async () => {
    const broken = {
      ...request('broken-pipe', '1.0.0', {
        claim: { repoUrl: `${forge.url}/o/broken-pipe`, repoIdentity: 'o/broken-pipe', repoVerified: false, ownerId },
      }),
    };
    broken.assets = [{ name: 'gone.tgz', url: `${forge.url}/nothing-here.tgz` }];
    await expect(ingest.ingest(broken)).rejects.toMatchObject({ kind: 'upstream-failed', extensions: { asset: 'gone.tgz' } });
    expect(await new PluginsRepository(app.database.dataSource).findBySlug('broken-pipe')).toBeNull();
  });
});
