/**
 * The step-up rule ("Hardening, round 4"): every credential change (password set or removed,
 * passkey added or removed, publisher token created) needs a session that proved who holds it in
 * the last 10 minutes: signed in then, or stepped up with a passkey or the current password. An
 * old session is refused with nothing changed; each of the three ways lets the change through.
 */
import request from 'supertest';
import { Clock } from '../../src/common/clock';
import { hashPassword } from '../../src/lib/password/password-hash';
import { userWithSession } from '../support/sessions';
import { SoftAuthenticator } from '../support/soft-authenticator';
import { startTestApp, type TestApp } from '../support/test-app';

const MINUTE = 60_000;
const PASSWORD = 'the current long password';

interface World {
  userId: string;
  jwt: string;
  authenticator: SoftAuthenticator;
  passkeyId: string;
}

/** What one credential change does, and a snapshot of everything it could change. */
interface Action {
  name: string;
  run(app: TestApp, world: World): Promise<request.Response>;
  ok: number;
}

const ACTIONS: Action[] = [
  {
    name: 'setting the password',
    ok: 200,
    run: (app, w) =>
      request(app.url).put('/api/auth/me/password').set('Authorization', `Bearer ${w.jwt}`).send({ password: 'an attacker password!' }),
  },
  {
    name: 'removing the password',
    ok: 204,
    run: (app, w) => request(app.url).delete('/api/auth/me/password').set('Authorization', `Bearer ${w.jwt}`),
  },
  {
    name: 'adding a passkey',
    ok: 201,
    run: async (app, w) => {
      const started = await request(app.url).post('/api/auth/me/passkeys/options').set('Authorization', `Bearer ${w.jwt}`).send({});
      if (started.status !== 200) return started;
      return request(app.url)
        .post('/api/auth/me/passkeys')
        .set('Authorization', `Bearer ${w.jwt}`)
        .send({ name: 'Second', response: new SoftAuthenticator(app.config.baseUrl).register(started.body.options) });
    },
  },
  {
    name: 'removing a passkey',
    ok: 204,
    run: (app, w) => request(app.url).delete(`/api/auth/me/passkeys/${w.passkeyId}`).set('Authorization', `Bearer ${w.jwt}`),
  },
  {
    name: 'creating a publisher token',
    ok: 201,
    run: (app, w) =>
      request(app.url)
        .post('/api/auth/me/tokens')
        .set('Authorization', `Bearer ${w.jwt}`)
        .send({ name: 'ci', scopes: ['publish:*'] }),
  },
];

describe('the step-up rule for credential changes', () => {
  let app: TestApp;
  let now = Date.now();
  let ipCounter = 0;
  let users = 0;
  let storedHash: string;

  beforeAll(async () => {
    app = await startTestApp();
    jest.spyOn(app.app.get(Clock), 'now').mockImplementation(() => new Date(now));
    storedHash = await hashPassword(PASSWORD);
  });
  afterAll(() => app?.close());

  const query = (sql: string, params: unknown[]) => app.database.dataSource.query(sql, params);
  const signedInAgo = (world: World, ms: number) =>
    query(`UPDATE user_session SET created_at = $1 WHERE user_id = $2`, [new Date(now - ms), world.userId]);

  /** A local user with a password and one passkey (added while its session was new), whose session signed in an hour ago. */
  async function world(): Promise<World> {
    now = Date.now();
    const { user, jwt } = await userWithSession(app, `stepper-${++users}`);
    await query(`INSERT INTO user_password (user_id, hash) VALUES ($1, $2)`, [user.id, storedHash]);
    const authenticator = new SoftAuthenticator(app.config.baseUrl);
    const options = await request(app.url).post('/api/auth/me/passkeys/options').set('Authorization', `Bearer ${jwt}`).send({}).expect(200);
    const added = await request(app.url)
      .post('/api/auth/me/passkeys')
      .set('Authorization', `Bearer ${jwt}`)
      .send({ name: 'First', response: authenticator.register(options.body.options) })
      .expect(201);
    const made: World = { userId: user.id, jwt, authenticator, passkeyId: added.body.id as string };
    await signedInAgo(made, 60 * MINUTE);
    return made;
  }

  /** Everything a credential change could touch, for "nothing changed". */
  async function snapshot(w: World) {
    const [row] = await query(
      `SELECT (SELECT hash FROM user_password WHERE user_id = $1) AS hash,
              (SELECT count(*)::int FROM passkey_credential WHERE user_id = $1) AS passkeys,
              (SELECT count(*)::int FROM webauthn_challenge WHERE user_id = $1) AS challenges,
              (SELECT count(*)::int FROM publisher_token WHERE user_id = $1) AS tokens,
              (SELECT count(*)::int FROM user_session WHERE user_id = $1 AND revoked_at IS NULL) AS sessions,
              (SELECT count(*)::int FROM audit_entry WHERE actor_user_id = $1) AS audits`,
      [w.userId],
    );
    return row as Record<string, unknown>;
  }

  describe.each(ACTIONS)('$name', (action) => {
    it('is refused to a session signed in over 10 minutes ago, with nothing changed', async () => {
      const w = await world();
      const before = await snapshot(w);
      const refused = await action.run(app, w);
      expect(refused.status).toBe(403);
      expect(refused.body.type).toMatch(/\/problems\/step-up-required$/);
      expect(refused.body.detail).toContain('POST /api/auth/me/step-up');
      expect(await snapshot(w)).toEqual(before);
    });

    it('goes through for a session signed in under 10 minutes ago', async () => {
      const w = await world();
      await signedInAgo(w, 9 * MINUTE);
      expect((await action.run(app, w)).status).toBe(action.ok);
    });

    it('goes through after a step-up with one of your passkeys', async () => {
      const w = await world();
      const options = await request(app.url)
        .post('/api/auth/me/step-up/options')
        .set('Authorization', `Bearer ${w.jwt}`)
        .send({})
        .expect(200);
      expect(options.body.options.allowCredentials).toEqual([
        expect.objectContaining({ id: Buffer.from(w.authenticator.credentials[0].id).toString('base64url') }),
      ]);
      await request(app.url)
        .post('/api/auth/me/step-up')
        .set('Authorization', `Bearer ${w.jwt}`)
        .set('X-Forwarded-For', `203.0.113.${++ipCounter}`)
        .send({ passkey: w.authenticator.authenticate(options.body.options) })
        .expect(204);
      expect((await action.run(app, w)).status).toBe(action.ok);
    });

    it('goes through after a step-up with the current password', async () => {
      const w = await world();
      await request(app.url)
        .post('/api/auth/me/step-up')
        .set('Authorization', `Bearer ${w.jwt}`)
        .set('X-Forwarded-For', `203.0.113.${++ipCounter}`)
        .send({ currentPassword: PASSWORD })
        .expect(204);
      expect((await action.run(app, w)).status).toBe(action.ok);
    });
  });

  it('guards adding a trusted or a pending publisher (a lasting way to publish) in the same way, with nothing written', async () => {
    const w = await world();
    const slug = `stepped-${users}`;
    const [plugin] = await query(`INSERT INTO plugin (slug, name, repo_url, repo_identity) VALUES ($1, $1, $2, $3) RETURNING id`, [
      slug,
      `https://github.com/acme/${slug}`,
      `github.com/acme/${slug}`,
    ]);
    await query(`INSERT INTO plugin_owner (plugin_id, user_id) VALUES ($1, $2)`, [plugin.id, w.userId]);
    const counts = async () =>
      (
        await query(
          `SELECT (SELECT count(*) FROM trusted_publisher)::int AS trusted, (SELECT count(*) FROM pending_publisher)::int AS pending, (SELECT count(*) FROM audit_entry WHERE actor_user_id = $1)::int AS audits`,
          [w.userId],
        )
      )[0];
    const before = await counts();
    const github = { forge: 'github', repository: 'acme/tool', workflow: 'release.yml' };
    const trusted = await request(app.url)
      .post(`/api/plugins/${slug}/trusted-publishers`)
      .set('Authorization', `Bearer ${w.jwt}`)
      .send(github);
    expect(trusted.status).toBe(403);
    expect(trusted.body.type).toMatch(/\/problems\/step-up-required$/);
    const pending = await request(app.url)
      .post('/api/auth/me/pending-publishers')
      .set('Authorization', `Bearer ${w.jwt}`)
      .send({ ...github, slug: `${slug}-next` });
    expect(pending.status).toBe(403);
    expect(pending.body.type).toMatch(/\/problems\/step-up-required$/);
    expect(await counts()).toEqual(before);
  });

  it('lasts 10 minutes from the step-up, and a wrong password or someone else’s passkey steps nothing up', async () => {
    const w = await world();
    const other = await world();
    const create = ACTIONS[4];
    const stepUp = (body: Record<string, unknown>) =>
      request(app.url)
        .post('/api/auth/me/step-up')
        .set('Authorization', `Bearer ${w.jwt}`)
        .set('X-Forwarded-For', `203.0.113.${++ipCounter}`)
        .send(body);
    const wrong = await stepUp({ currentPassword: 'not the password at all' }).expect(403);
    expect(wrong.body.type).toMatch(/\/problems\/current-password-wrong$/);
    // Another account's passkey, answering this account's challenge.
    const options = await request(app.url)
      .post('/api/auth/me/step-up/options')
      .set('Authorization', `Bearer ${w.jwt}`)
      .send({})
      .expect(200);
    const foreign = await stepUp({ passkey: other.authenticator.authenticate(options.body.options) }).expect(403);
    expect(foreign.body.type).toMatch(/\/problems\/step-up-failed$/);
    // A sign-in's challenge (made for nobody) does not step a session up.
    const signInOptions = await request(app.url).post('/api/auth/sign-in/passkey/options').send({}).expect(200);
    await stepUp({ passkey: w.authenticator.authenticate(signInOptions.body.options) }).expect(403);
    await stepUp({}).expect(400);
    expect((await create.run(app, w)).status).toBe(403);
    const [verified] = await query(`SELECT verified_at FROM user_session WHERE user_id = $1`, [w.userId]);
    expect(verified.verified_at).toBeNull();

    await stepUp({ currentPassword: PASSWORD }).expect(204);
    now += 9 * MINUTE;
    expect((await create.run(app, w)).status).toBe(201);
    now += 2 * MINUTE;
    expect((await create.run(app, w)).status).toBe(403);
    const audited = await query(`SELECT details FROM audit_entry WHERE action = 'user.step_up' AND actor_user_id = $1`, [w.userId]);
    expect(audited.map((row: { details: { method: string } }) => row.details.method)).toEqual(['password']);
  });
});
