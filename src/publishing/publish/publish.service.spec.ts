/**
 * PublishService with its real collaborators on the test database: the claim and scope rules and
 * their audit trail, without HTTP in between.
 */
import request from 'supertest';
import { FakeForge } from '../../../test/support/fake-forge';
import { manifestYaml } from '../../../test/support/publishing';
import { userWithSession } from '../../../test/support/sessions';
import { startTestApp, type TestApp } from '../../../test/support/test-app';
import { PublisherTokenEntity } from '../../accounts/tokens/entities/publisher-token.entity';
import type { PublisherTokenContext } from '../../accounts/tokens/publisher-token-context';
import type { PublishDto } from './dto/publish.dto';
import { PublishService } from './publish.service';

describe('PublishService', () => {
  let app: TestApp;
  let forge: FakeForge;
  let service: PublishService;

  beforeAll(async () => {
    forge = await new FakeForge().start();
    app = await startTestApp({ FETCH_ALLOW_HOSTS: `127.0.0.1:${new URL(forge.url).port}` });
    service = app.app.get(PublishService);
  });
  afterAll(async () => {
    await app?.close();
    await forge?.stop();
  });

  /** A token context exactly as the guard builds it: the stored token row with its owner. */
  async function tokenAuth(login: string, scopes: string[]): Promise<PublisherTokenContext> {
    const { jwt } = await userWithSession(app, login);
    await request(app.url).post('/api/auth/me/tokens').set('Authorization', `Bearer ${jwt}`).send({ name: 'ci', scopes }).expect(201);
    const token = await app.database.dataSource
      .getRepository(PublisherTokenEntity)
      .createQueryBuilder('t')
      .innerJoinAndSelect('t.user', 'u')
      .where('u.login = :login', { login })
      .getOneOrFail();
    return { kind: 'token', user: token.user!, token };
  }

  const body = (slug: string, version: string): PublishDto => ({
    manifest: manifestYaml({ name: slug, version }),
    manifestSource: 'plugin.yaml',
    version,
    assets: [{ name: 'a.zip', url: forge.asset(`/${slug}/${version}/a.zip`, { size: 10 }) }],
    repoUrl: `${forge.url}/team/${slug}`,
  });
  const actions = async (slug: string) =>
    (await app.database.dataSource.query('SELECT action FROM audit_entry WHERE slug = $1 ORDER BY created_at', [slug])).map(
      (r: { action: string }) => r.action,
    );

  it('claims with publish:*, then updates without a repoUrl', async () => {
    const auth = await tokenAuth('svc-owner', ['publish:*']);
    expect(await service.publish(auth, 'svc-one', body('svc-one', '1.0.0'), '127.0.0.1')).toMatchObject({ claimed: true });
    const { repoUrl: _, ...update } = body('svc-one', '1.1.0');
    expect(await service.publish(auth, 'svc-one', update, null)).toMatchObject({ claimed: false, version: '1.1.0' });
    expect(await actions('svc-one')).toEqual(['plugin.claim', 'plugin.publish', 'plugin.publish']);
  });

  it('denies a slug-bound token a new slug and audits the denial with the token as actor', async () => {
    const auth = await tokenAuth('svc-narrow', ['publish:svc-two']);
    await expect(service.publish(auth, 'svc-two', body('svc-two', '1.0.0'), null)).rejects.toMatchObject({ kind: 'forbidden' });
    const [entry] = await app.database.dataSource.query(`SELECT action, actor_token_id FROM audit_entry WHERE slug = 'svc-two'`);
    expect(entry).toEqual({ action: 'plugin.publish_denied', actor_token_id: auth.token.id });
  });

  it('audits a yank by a token without a yank scope as plugin.yank_denied', async () => {
    const auth = await tokenAuth('svc-yanker', ['publish:*']);
    await service.publish(auth, 'svc-three', body('svc-three', '1.0.0'), null);
    await expect(service.yank(auth, 'svc-three', { version: '1.0.0' }, null)).rejects.toMatchObject({ kind: 'forbidden' });
    expect(await actions('svc-three')).toEqual(['plugin.claim', 'plugin.publish', 'plugin.yank_denied']);
  });
});
