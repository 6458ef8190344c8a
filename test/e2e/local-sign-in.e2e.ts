/**
 * Sign-in without a forge over HTTP (docs/administering.md#sign-in-without-a-forge): passwords
 * (JSON and the no-script form), the same answer for an unknown login, a wrong password and a
 * locked account, failure limits per account and per address, one-time sign-in links (single use,
 * 15 minutes on an injected clock), and passkeys registered and used with a software authenticator.
 */
import request from 'supertest';
import { Clock } from '../../src/common/clock';
import { PasskeysRepository } from '../../src/accounts/local-sign-in/passkeys.repository';
import { issueSignInLink } from '../../src/accounts/local-sign-in/sign-in-links';
import { userWithSession } from '../support/sessions';
import { SoftAuthenticator } from '../support/soft-authenticator';
import { startTestApp, type TestApp } from '../support/test-app';

const MINUTE = 60_000;

describe('sign-in without a forge', () => {
  let app: TestApp;
  let now = Date.UTC(2026, 10, 27, 12, 0, 0);
  let ipCounter = 0;
  /** A fresh client address per test, so per-address counters never leak between tests. */
  const freshIp = () => `198.51.100.${++ipCounter}`;

  beforeAll(async () => {
    // Room for the 20 attempts sent at once below (the cap's own 503 is tested in credential-hardening.e2e.ts).
    app = await startTestApp({ PASSWORD_HASH_CONCURRENCY: '20' });
    jest.spyOn(app.app.get(Clock), 'now').mockImplementation(() => new Date(now));
  });
  afterAll(() => app?.close());

  const setPassword = (jwt: string, password: string) =>
    request(app.url).put('/api/auth/me/password').set('Authorization', `Bearer ${jwt}`).send({ password });
  const signIn = (login: string, password: string, ip: string) =>
    request(app.url).post('/api/auth/sign-in/password').set('X-Forwarded-For', ip).send({ login, password });
  const audit = async (action: string) =>
    (await app.database.dataSource.query(`SELECT details, ip, actor_user_id FROM audit_entry WHERE action = $1 ORDER BY created_at, id`, [
      action,
    ])) as { details: Record<string, unknown>; ip: string | null; actor_user_id: string | null }[];

  it('signs a local user in with a password set on the account, and the session works like an OAuth one', async () => {
    const { user, jwt } = await userWithSession(app, 'alice');
    await request(app.url)
      .get('/api/auth/me/password')
      .set('Authorization', `Bearer ${jwt}`)
      .expect(200, { enabled: true, available: true, set: false, updatedAt: null });
    const tooShort = await setPassword(jwt, 'short').expect(400);
    expect(tooShort.body.errors).toEqual([{ path: '/password', message: 'must be at least 10 characters long' }]);
    const set = await setPassword(jwt, 'correct horse battery').expect(200);
    expect(set.body).toMatchObject({ set: true, available: true });
    const stored = await app.database.dataSource.query(`SELECT hash FROM user_password WHERE user_id = $1`, [user.id]);
    expect(stored[0].hash).toMatch(/^\$scrypt\$ln=15,r=8,p=3\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(JSON.stringify(set.body)).not.toContain(stored[0].hash);

    const ok = await signIn('alice', 'correct horse battery', freshIp()).expect(200);
    expect(ok.headers['cache-control']).toBe('no-store');
    expect(ok.body.user).toMatchObject({ login: 'alice', instance: 'local' });
    const cookie = ok.headers['set-cookie'][0] as string;
    expect(cookie).toMatch(/^registry_session=[^;]+; Max-Age=604800; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Lax$/);
    await request(app.url).get('/api/auth/me').set('Cookie', cookie.split(';')[0]).expect(200);
    // The form holding the new password posts (never a GET that would put it in an address) if sent before its script runs.
    const account = await request(app.url).get('/account').set('Cookie', cookie.split(';')[0]).expect(200);
    expect(account.text).toContain('<form id="password-form" class="password-form" method="post" action="/account" novalidate>');
    expect(account.text).toContain('name="currentPassword" type="password"');
    await request(app.url).get('/api/auth/me').set('Authorization', `Bearer ${ok.body.token}`).expect(200);
    expect((await audit('user.sign_in')).at(-1)).toMatchObject({ actor_user_id: user.id, details: { method: 'password', login: 'alice' } });
    expect((await audit('password.set')).at(-1)).toMatchObject({ actor_user_id: user.id });
  });

  it('answers an unknown login, a wrong password, a user without password and a disabled account the same way', async () => {
    const { jwt, user } = await userWithSession(app, 'bob');
    await setPassword(jwt, 'bob has a long password').expect(200);
    await userWithSession(app, 'carol'); // no password
    const answers = [
      await signIn('nobody-here', 'bob has a long password', freshIp()),
      await signIn('bob', 'not the password at all', freshIp()),
      await signIn('carol', 'whatever it might be', freshIp()),
    ];
    await app.database.dataSource.query(`UPDATE user_account SET disabled_at = now() WHERE id = $1`, [user.id]);
    answers.push(await signIn('bob', 'bob has a long password', freshIp()));
    await app.database.dataSource.query(`UPDATE user_account SET disabled_at = NULL WHERE id = $1`, [user.id]);
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(answer.headers['set-cookie']).toBeUndefined();
      expect(answer.body).toEqual(answers[0].body);
    }
    expect(answers[0].body).toMatchObject({ status: 401, detail: 'the login or the password is wrong' });
    expect(answers[0].body.type).toMatch(/\/problems\/sign-in-failed$/);
    const failures = (await audit('user.sign_in_failed')).slice(-4);
    expect(failures.map((row) => row.details.reason)).toEqual(['unknown-login', 'wrong-password', 'no-password', 'disabled']);
    // People type passwords into login fields: an unknown login is kept as a digest prefix only.
    expect(failures[0].details).not.toHaveProperty('login');
    expect(failures[0].details.loginSha256).toMatch(/^[0-9a-f]{16}$/);
    expect(JSON.stringify(failures[0])).not.toContain('nobody-here');
    expect(failures[1].details).toMatchObject({ login: 'bob', userId: user.id });
  });

  it('locks an account after 5 failures in 15 minutes, answering the right password like a wrong one, then lets it in again', async () => {
    const { jwt } = await userWithSession(app, 'dave');
    await setPassword(jwt, 'dave has a long password').expect(200);
    now = Math.ceil(now / (15 * MINUTE)) * 15 * MINUTE + MINUTE;
    const wrong = await signIn('dave', 'wrong password 1', freshIp()).expect(401);
    for (let i = 2; i <= 5; i++) await signIn('dave', `wrong password ${i}`, freshIp()).expect(401);
    // From other addresses, with the right password: still refused, exactly as a wrong one.
    const locked = await signIn('dave', 'dave has a long password', freshIp()).expect(401);
    expect(locked.body).toEqual(wrong.body);
    expect((await audit('user.sign_in_failed')).at(-1)?.details.reason).toBe('locked');
    now += 15 * MINUTE;
    await signIn('dave', 'dave has a long password', freshIp()).expect(200);
  });

  it('counts a password attempt as it starts: 20 wrong ones sent at once verify at most 5', async () => {
    const { user, jwt } = await userWithSession(app, 'ivan');
    await setPassword(jwt, 'ivan has a long password').expect(200);
    now = Math.ceil(now / (15 * MINUTE)) * 15 * MINUTE + MINUTE;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => signIn('ivan', `wrong password ${i}`, freshIp())));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(401));
    const reasons = (await audit('user.sign_in_failed')).filter((row) => row.details.userId === user.id).map((row) => row.details.reason);
    expect(reasons).toHaveLength(20);
    expect(reasons.filter((reason) => reason === 'wrong-password')).toHaveLength(5);
    expect(reasons.filter((reason) => reason === 'locked')).toHaveLength(15);
    await signIn('ivan', 'ivan has a long password', freshIp()).expect(401);
    now += 15 * MINUTE;
    // A success hands its count back: more successes than the limit in one window lock nothing.
    for (let i = 0; i < 6; i++) await signIn('ivan', 'ivan has a long password', freshIp()).expect(200);
  });

  it('asks for a step-up (or the current password) to set or change one, and signs out the other sessions', async () => {
    const { user, jwt: first } = await userWithSession(app, 'judy');
    const bearer = (jwt: string) => ({ Authorization: `Bearer ${jwt}` });
    const signedInAgo = (ms: number) =>
      app.database.dataSource.query(`UPDATE user_session SET created_at = $1 WHERE user_id = $2`, [new Date(now - ms), user.id]);
    await signedInAgo(60 * MINUTE);
    // Even the first password needs a session that proved itself in the last 10 minutes.
    const stale = await setPassword(first, 'judy has a long password').expect(403);
    expect(stale.body.type).toMatch(/\/problems\/step-up-required$/);
    await signedInAgo(9 * MINUTE);
    await setPassword(first, 'judy has a long password').expect(200);
    const second = (await signIn('judy', 'judy has a long password', freshIp()).expect(200)).body.token as string;
    await signedInAgo(11 * MINUTE);
    const change = (jwt: string, body: Record<string, string>) => request(app.url).put('/api/auth/me/password').set(bearer(jwt)).send(body);
    const required = await change(second, { password: 'judy has a new password' }).expect(403);
    expect(required.body.type).toMatch(/\/problems\/step-up-required$/);
    const wrong = await change(second, { password: 'judy has a new password', currentPassword: 'not the current one' }).expect(403);
    expect(wrong.body.type).toMatch(/\/problems\/current-password-wrong$/);
    await request(app.url).get('/api/auth/me').set(bearer(first)).expect(200);
    await change(second, { password: 'judy has a new password', currentPassword: 'judy has a long password' }).expect(200);
    // The other session is signed out; this one stays.
    await request(app.url).get('/api/auth/me').set(bearer(first)).expect(401);
    await request(app.url).get('/api/auth/me').set(bearer(second)).expect(200);
    await signIn('judy', 'judy has a long password', freshIp()).expect(401);

    // Signed in less than 10 minutes ago (a sign-in link after a forgotten password): no current password needed.
    const third = (await signIn('judy', 'judy has a new password', freshIp()).expect(200)).body.token as string;
    await app.database.dataSource.query(`UPDATE user_session SET created_at = $1 WHERE user_id = $2 AND revoked_at IS NULL`, [
      new Date(now - 9 * MINUTE),
      user.id,
    ]);
    await change(third, { password: 'judy forgot and reset it' }).expect(200);
    await request(app.url).get('/api/auth/me').set(bearer(second)).expect(401);
    const fourth = (await signIn('judy', 'judy forgot and reset it', freshIp()).expect(200)).body.token as string;
    await request(app.url).delete('/api/auth/me/password').set(bearer(fourth)).expect(204);
    await request(app.url).get('/api/auth/me').set(bearer(third)).expect(401);
    await request(app.url).get('/api/auth/me').set(bearer(fourth)).expect(200);
  });

  it('refuses an address with 429 and Retry-After after too many failures, whatever the logins', async () => {
    const admin = await userWithSession(app, 'root-limits', 'admin');
    await request(app.url)
      .patch('/api/admin/settings')
      .set('Authorization', `Bearer ${admin.jwt}`)
      .send({ 'ratelimit.signin_failures_per_ip': 3 })
      .expect(200);
    const ip = freshIp();
    for (let i = 0; i < 3; i++) await signIn(`ghost${i}`, 'some password here', ip).expect(401);
    const refused = await signIn('alice', 'correct horse battery', ip).expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body.type).toMatch(/\/problems\/rate-limited$/);
    await signIn('alice', 'correct horse battery', freshIp()).expect(200);
    await request(app.url)
      .patch('/api/admin/settings')
      .set('Authorization', `Bearer ${admin.jwt}`)
      .send({ 'ratelimit.signin_failures_per_ip': 30 })
      .expect(200);
  });

  it('counts the failures of an IPv6 client by its /64, so fresh addresses in it buy no more guesses', async () => {
    const admin = await userWithSession(app, 'root-limits-v6', 'admin');
    await request(app.url)
      .patch('/api/admin/settings')
      .set('Authorization', `Bearer ${admin.jwt}`)
      .send({ 'ratelimit.signin_failures_per_ip': 3 })
      .expect(200);
    for (const ip of ['2001:db8:9:1::1', '2001:db8:9:1::2', '2001:db8:9:1:ffff::3'])
      await signIn('ghost-v6', 'some password here', ip).expect(401);
    const refused = await signIn('alice', 'correct horse battery', '2001:db8:9:1:abcd::4').expect(429);
    expect(refused.body.type).toMatch(/\/problems\/rate-limited$/);
    await signIn('alice', 'correct horse battery', '2001:db8:9:2::1').expect(200);
    await request(app.url)
      .patch('/api/admin/settings')
      .set('Authorization', `Bearer ${admin.jwt}`)
      .send({ 'ratelimit.signin_failures_per_ip': 30 })
      .expect(200);
  });

  it('takes the no-script form post from its own pages: 303 with the cookie, or back to /sign-in saying why', async () => {
    const form = (fields: Record<string, string>, origin?: string) => {
      const test = request(app.url).post('/api/auth/sign-in/password').set('X-Forwarded-For', freshIp()).type('form');
      return (origin ? test.set('Origin', origin) : test).send(fields);
    };
    const ok = await form({ login: 'alice', password: 'correct horse battery', next: '/admin' }, app.config.baseUrl).expect(303);
    expect(ok.headers.location).toBe('/admin');
    expect(ok.headers['set-cookie'][0]).toMatch(/^registry_session=/);
    const offsite = await form({ login: 'alice', password: 'correct horse battery', next: '//evil.example/x' }).expect(303);
    expect(offsite.headers.location).toBe('/account');
    const failed = await form({ login: 'alice', password: 'wrong password here' }, app.config.baseUrl).expect(303);
    // The login stays out of the address (access logs, history): people type passwords into it.
    expect(failed.headers.location).toBe('/sign-in?error=sign-in-failed');
    expect(failed.headers['set-cookie']).toBeUndefined();
    const foreign = await form({ login: 'alice', password: 'correct horse battery' }, 'https://evil.example').expect(403);
    expect(foreign.body.type).toMatch(/\/problems\/origin-check-failed$/);
    expect(foreign.headers['set-cookie']).toBeUndefined();
    // Today's browsers are judged by Sec-Fetch-Site (under this site's no-referrer policy they send `Origin: null`).
    const fetchSite = (site: string) =>
      request(app.url)
        .post('/api/auth/sign-in/password')
        .set('X-Forwarded-For', freshIp())
        .set('Origin', 'null')
        .set('Sec-Fetch-Site', site)
        .type('form')
        .send({ login: 'alice', password: 'correct horse battery' });
    await fetchSite('cross-site').expect(403);
    await fetchSite('same-site').expect(403);
    expect((await fetchSite('same-origin').expect(303)).headers.location).toBe('/account');
    // Other API routes still take JSON only.
    await request(app.url).post('/api/auth/sign-in/link').type('form').send({ token: 'x' }).expect(415);
  });

  it('turns passwords off with the setting, and passkeys and links stay', async () => {
    const admin = await userWithSession(app, 'root-off', 'admin');
    const patch = (value: number) =>
      request(app.url)
        .patch('/api/admin/settings')
        .set('Authorization', `Bearer ${admin.jwt}`)
        .send({ 'signin.password_enabled': value })
        .expect(200);
    await patch(0);
    await request(app.url).get('/api/auth/sign-in/methods').expect(200, { password: false, passkey: true });
    const off = await signIn('alice', 'correct horse battery', freshIp()).expect(404);
    expect(off.body.type).toMatch(/\/problems\/password-sign-in-off$/);
    await setPassword(admin.jwt, 'another long password').expect(404);
    const page = await request(app.url).get('/sign-in').expect(200);
    expect(page.text).not.toContain('id="password-form"');
    expect(page.text).toContain('id="passkey-sign-in"');
    expect(page.text).toContain('registry users sign-in-link &lt;login&gt;');
    await patch(1);
    await request(app.url).get('/api/auth/sign-in/methods').expect(200, { password: true, passkey: true });
    // `next` is a path on this site, or nothing: no scheme-relative URL hidden behind a tab or a backslash.
    for (const next of ['/%09/evil.example', '//evil.example', '/%5Cevil.example', '/%0A/evil.example', 'https://evil.example']) {
      const tricked = await request(app.url).get(`/sign-in?next=${next}`).expect(200);
      expect(tricked.text).not.toContain('evil.example');
      expect(tricked.text).toContain('<script type="application/json" id="page-data">{"next":"/account"}</script>');
    }
    const kept = await request(app.url).get('/sign-in?next=%2Fadmin%2Fusers').expect(200);
    expect(kept.text).toContain('<input type="hidden" name="next" value="/admin/users">');
    const again = await request(app.url).get('/sign-in?error=sign-in-failed&login=%3Cb%3Ealice').expect(200);
    expect(again.text).toContain('<form id="password-form" method="post" action="/api/auth/sign-in/password">');
    expect(again.text).toContain('role="alert">The login or the password is wrong.</p>');
    // A login in an old address is not written back into the page.
    expect(again.text).not.toContain('alice');
  });

  it('signs in once with a sign-in link, refuses it used, expired or unknown, with a page saying why', async () => {
    const { user } = await userWithSession(app, 'erin');
    const link = await issueSignInLink(app.database.dataSource, {
      userId: user.id,
      login: 'erin',
      baseUrl: app.config.baseUrl,
      now: new Date(now),
      via: 'api',
    });
    expect(link.url).toMatch(new RegExp(`^${app.config.baseUrl}/auth/link\\?token=[A-Za-z0-9_-]{43}$`));
    const token = new URL(link.url).searchParams.get('token')!;
    const stored = await app.database.dataSource.query(`SELECT encode(token_sha256, 'hex') AS sha FROM sign_in_link WHERE user_id = $1`, [
      user.id,
    ]);
    expect(stored[0].sha).toHaveLength(64);
    expect(stored[0].sha).not.toContain(Buffer.from(token).toString('hex').slice(0, 16));

    // Following the link (a link scanner, a chat unfurler, or the person) only shows a page asking to continue.
    for (let i = 0; i < 3; i++) {
      const shown = await request(app.url).get(`/auth/link?token=${token}`).expect(200);
      expect(shown.headers['set-cookie']).toBeUndefined();
      expect(shown.text).toContain('<form id="link-form" method="post" action="/auth/link">');
      expect(shown.text).toContain(`<input type="hidden" name="token" value="${token}">`);
    }
    const post = (origin: string | null, site?: string) => {
      const test = request(app.url).post('/auth/link').set('X-Forwarded-For', freshIp()).type('form');
      if (origin) test.set('Origin', origin);
      if (site) test.set('Sec-Fetch-Site', site);
      return test.send({ token });
    };
    const foreign = await post('https://evil.example').expect(403);
    expect(foreign.body.type).toMatch(/\/problems\/origin-check-failed$/);
    await post('null', 'cross-site').expect(403);
    const followed = await post('null', 'same-origin').expect(303);
    expect(followed.headers.location).toBe('/account');
    const cookie = (followed.headers['set-cookie'][0] as string).split(';')[0];
    const me = await request(app.url).get('/api/auth/me').set('Cookie', cookie).expect(200);
    expect(me.body.login).toBe('erin');
    const again = await post(app.config.baseUrl).expect(303);
    expect(again.headers.location).toBe('/sign-in/link?error=used');
    expect(again.headers['set-cookie']).toBeUndefined();
    const used = await request(app.url).post('/api/auth/sign-in/link').send({ token }).expect(410);
    expect(used.body.type).toMatch(/\/problems\/sign-in-link-used$/);
    const page = await request(app.url).get('/sign-in/link?error=used').expect(410);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('This sign-in link was used already');

    const late = await issueSignInLink(app.database.dataSource, {
      userId: user.id,
      login: 'erin',
      baseUrl: app.config.baseUrl,
      now: new Date(now),
      via: 'api',
    });
    now += 15 * MINUTE + 1000;
    const expired = await request(app.url)
      .post('/api/auth/sign-in/link')
      .send({ token: new URL(late.url).searchParams.get('token') })
      .expect(410);
    expect(expired.body.type).toMatch(/\/problems\/sign-in-link-expired$/);
    const unknown = await request(app.url)
      .post('/api/auth/sign-in/link')
      .send({ token: 'A'.repeat(43) })
      .expect(404);
    expect(unknown.body.type).toMatch(/\/problems\/sign-in-link-unknown$/);
    expect((await audit('sign_in_link.use')).map((row) => row.actor_user_id)).toEqual([user.id]);
    expect((await audit('sign_in_link.issue')).length).toBe(2);
  });

  it('registers a passkey on the account and signs in with it, usernameless; refuses replays, other origins and removed passkeys', async () => {
    const { user, jwt } = await userWithSession(app, 'frank');
    const authenticator = new SoftAuthenticator(app.config.baseUrl);
    const bearer = (test: request.Test) => test.set('Authorization', `Bearer ${jwt}`);
    const creation = await bearer(request(app.url).post('/api/auth/me/passkeys/options')).send({}).expect(200);
    expect(creation.body.options).toMatchObject({
      rp: { id: '127.0.0.1' },
      user: { name: 'frank' },
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    const registration = authenticator.register(creation.body.options);
    const added = await bearer(request(app.url).post('/api/auth/me/passkeys')).send({ name: 'Laptop', response: registration }).expect(201);
    expect(added.body).toMatchObject({ name: 'Laptop', lastUsedAt: null });
    // The same challenge cannot register twice.
    await bearer(request(app.url).post('/api/auth/me/passkeys')).send({ response: registration }).expect(400);

    const options = await request(app.url).post('/api/auth/sign-in/passkey/options').send({}).expect(200);
    expect(options.body.options.allowCredentials ?? []).toEqual([]);
    const answer = authenticator.authenticate(options.body.options);
    const signedIn = await request(app.url)
      .post('/api/auth/sign-in/passkey')
      .set('X-Forwarded-For', freshIp())
      .send({ response: answer })
      .expect(200);
    expect(signedIn.body.user).toMatchObject({ id: user.id, login: 'frank' });
    expect(signedIn.headers['set-cookie'][0]).toMatch(/^registry_session=/);
    // A replayed answer (its challenge is used up) and another origin's answer are refused.
    const replay = await request(app.url)
      .post('/api/auth/sign-in/passkey')
      .set('X-Forwarded-For', freshIp())
      .send({ response: answer })
      .expect(401);
    expect(replay.body.type).toMatch(/\/problems\/passkey-rejected$/);
    const other = await request(app.url).post('/api/auth/sign-in/passkey/options').send({}).expect(200);
    await request(app.url)
      .post('/api/auth/sign-in/passkey')
      .set('X-Forwarded-For', freshIp())
      .send({ response: authenticator.authenticate(other.body.options, undefined, { origin: 'https://evil.example' }) })
      .expect(401);

    const listed = await bearer(request(app.url).get('/api/auth/me/passkeys')).expect(200);
    expect(listed.body.passkeys).toHaveLength(1);
    expect(listed.body.passkeys[0].lastUsedAt).toBe(now);
    // The signature counter only goes up, whatever order two sign-ins are stored in.
    const signCount = async () =>
      Number(
        (await app.database.dataSource.query(`SELECT sign_count FROM passkey_credential WHERE id = $1`, [added.body.id]))[0].sign_count,
      );
    const counted = await signCount();
    expect(counted).toBeGreaterThan(0);
    await new PasskeysRepository(app.database.dataSource).used(added.body.id, counted - 1, new Date(now));
    expect(await signCount()).toBe(counted);
    await bearer(request(app.url).patch(`/api/auth/me/passkeys/${added.body.id}`))
      .send({ name: 'Work laptop' })
      .expect(200);
    const someoneElse = await userWithSession(app, 'grace');
    await request(app.url).delete(`/api/auth/me/passkeys/${added.body.id}`).set('Authorization', `Bearer ${someoneElse.jwt}`).expect(404);
    await bearer(request(app.url).delete(`/api/auth/me/passkeys/${added.body.id}`)).expect(204);
    const afterRemoval = await request(app.url).post('/api/auth/sign-in/passkey/options').send({}).expect(200);
    await request(app.url)
      .post('/api/auth/sign-in/passkey')
      .set('X-Forwarded-For', freshIp())
      .send({ response: authenticator.authenticate(afterRemoval.body.options) })
      .expect(401);
    expect((await audit('passkey.add')).map((row) => row.details.name)).toEqual(['Laptop']);
    expect((await audit('passkey.remove')).map((row) => row.details.name)).toEqual(['Work laptop']);
    expect((await audit('user.sign_in')).filter((row) => row.details.method === 'passkey')).toHaveLength(1);
  });

  it('counts the 20 passkeys again when a registration finishes, so two started at 19 do not make 21', async () => {
    const { user, jwt } = await userWithSession(app, 'kate');
    const passkeys = new PasskeysRepository(app.database.dataSource);
    for (let i = 0; i < 19; i++) {
      await passkeys.create({
        userId: user.id,
        credentialId: `kate-${i}`,
        publicKey: Buffer.from([i]),
        signCount: 0,
        transports: [],
        name: `Old ${i}`,
        deviceType: 'singleDevice',
        backedUp: false,
      });
    }
    const authenticator = new SoftAuthenticator(app.config.baseUrl);
    const start = async () =>
      (await request(app.url).post('/api/auth/me/passkeys/options').set('Authorization', `Bearer ${jwt}`).send({}).expect(200)).body
        .options;
    const [a, b] = [await start(), await start()];
    const finish = (options: { challenge: string; user: { id: string } }) =>
      request(app.url)
        .post('/api/auth/me/passkeys')
        .set('Authorization', `Bearer ${jwt}`)
        .send({ response: authenticator.register(options) });
    await finish(a).expect(201);
    const over = await finish(b).expect(409);
    expect(over.body.type).toMatch(/\/problems\/passkey-limit-reached$/);
    expect(
      Number((await app.database.dataSource.query(`SELECT count(*) AS n FROM passkey_credential WHERE user_id = $1`, [user.id]))[0].n),
    ).toBe(20);
  });

  it('replaces a hash made with weaker parameters at the next sign-in', async () => {
    const { user } = await userWithSession(app, 'henry');
    const { hashPassword } = await import('../../src/lib/password/password-hash');
    await app.database.dataSource.query(`INSERT INTO user_password (user_id, hash) VALUES ($1, $2)`, [
      user.id,
      await hashPassword('henry has an old hash', { ln: 10, r: 8, p: 1 }),
    ]);
    await signIn('henry', 'henry has an old hash', freshIp()).expect(200);
    const [row] = await app.database.dataSource.query(`SELECT hash FROM user_password WHERE user_id = $1`, [user.id]);
    expect(row.hash).toMatch(/^\$scrypt\$ln=15,r=8,p=3\$/);
    await signIn('henry', 'henry has an old hash', freshIp()).expect(200);
  });

  it('keeps passwords for local accounts', async () => {
    const dataSource = app.database.dataSource;
    const [row] = await dataSource.query(
      `INSERT INTO user_account (instance, provider_user_id, login) VALUES ('github', '77', 'octo') RETURNING id`,
    );
    const { SessionTokens } = await import('../../src/platform/auth/session-tokens');
    const { SessionsRepository } = await import('../../src/platform/auth/sessions.repository');
    const session = await new SessionTokens(app.config.sessionSecret, new SessionsRepository(dataSource), app.app.get(Clock)).issue(row.id);
    const refused = await setPassword(session.token, 'a long enough password').expect(409);
    expect(refused.body.type).toMatch(/\/problems\/password-not-local$/);
  });
});
