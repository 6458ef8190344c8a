/**
 * The response cache and who is asking (docs/api-conventions.md#security-rules,
 * "The response cache holds anonymous answers only"): a request the session
 * guard signs in, however its cookie is spelled, or one with an Authorization header, is neither
 * answered from the shared cache nor stored into it; an answer marked private or no-store is never
 * stored, whatever route produced it; a write the router accepts empties the cache in whatever
 * spelling it arrived.
 */
import { Controller, Get, Header, Module, Param, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Response } from 'express';
import Redis from 'ioredis';
import request from 'supertest';
import { configureHttp } from '../../src/app.factory';
import { CommonModule } from '../../src/common/common.module';
import { createLogger } from '../../src/common/logging/logger';
import { loadConfig } from '../../src/config/config';
import { ConfigModule } from '../../src/config/config.module';
import { ResponseCache } from '../../src/platform/response-cache/response-cache';
import { MemoryResponseStore } from '../../src/platform/response-cache/stores/memory-store';
import { RedisResponseStore } from '../../src/platform/response-cache/stores/redis-store';
import { userWithSession } from '../support/sessions';
import { manifestYaml, publishWorld, type PublishWorld } from '../support/publishing';

function pushBody(w: PublishWorld, slug: string, version: string) {
  const url = w.forge.asset(`/acme/${slug}/releases/download/${version}/${slug}.zip`, { size: 1_000, seed: version.length });
  return {
    manifest: manifestYaml({ name: slug, version }),
    manifestSource: 'plugin.yaml',
    version,
    assets: [{ name: `${slug}.zip`, url }],
    repoUrl: `${w.forge.url}/acme/${slug}`,
  };
}

describe('response cache and credentials', () => {
  let w: PublishWorld;
  let admin: { jwt: string; id: string };

  beforeAll(async () => {
    w = await publishWorld();
    const token = (await w.tokenFor('author', ['publish:*'])).token;
    const root = await userWithSession(w.app, 'root', 'admin');
    admin = { jwt: root.jwt, id: root.user.id };
    await w.push(token, 'alpha', pushBody(w, 'alpha', '1.0.0')).expect(201);
    await request(w.app.url).post('/api/admin/plugins/alpha/verify').set('Authorization', `Bearer ${admin.jwt}`).expect(200);
    // An answer is stored on its second ask: once asked here, every anonymous miss below is stored.
    await request(w.app.url).get('/api/plugins/alpha').expect(200);
  });
  afterAll(() => w?.close());

  const detail = () => request(w.app.url).get('/api/plugins/alpha');
  const emptyCache = () => w.app.app.get(ResponseCache).invalidate();

  // Every spelling the session guard reads as the admin's session (RFC 6265 allows the quotes;
  // browsers and proxies add the blanks).
  const spellings: [string, (jwt: string) => string][] = [
    ['a space before =', (jwt) => `registry_session =${jwt}`],
    ['a tab before =', (jwt) => `registry_session\t=${jwt}`],
    ['several cookies, blanks around the name', (jwt) => `theme=dark;  registry_session \t= ${jwt} ;lang=en`],
    ['a quoted value', (jwt) => `registry_session="${jwt}"`],
    ['a quoted value after a space before =', (jwt) => `lang=en; registry_session ="${jwt}"`],
  ];

  it.each(spellings)("never stores the admin's detail for anonymous reads (%s)", async (_name, cookie) => {
    await emptyCache();
    const signedIn = await detail().set('Cookie', cookie(admin.jwt)).expect(200);
    expect(signedIn.body.verifiedBy).toBe(admin.id);
    expect(signedIn.headers['x-cache']).toBeUndefined();
    expect(signedIn.headers['cache-control']).toMatch(/private/);

    const anonymous = await detail().expect(200);
    expect(anonymous.headers['x-cache']).toBe('miss');
    expect(anonymous.body).not.toHaveProperty('verifiedBy');
    const again = await detail().expect(200);
    expect(again.headers['x-cache']).toBe('hit');
    expect(again.body).not.toHaveProperty('verifiedBy');
  });

  it.each(spellings)('never answers the admin from the anonymous entry (%s)', async (_name, cookie) => {
    await emptyCache();
    await detail().expect(200);
    expect((await detail().expect(200)).headers['x-cache']).toBe('hit');
    const signedIn = await detail().set('Cookie', cookie(admin.jwt)).expect(200);
    expect(signedIn.headers['x-cache']).toBeUndefined();
    expect(signedIn.body.verifiedBy).toBe(admin.id);
  });

  it('bypasses the cache for any Authorization header, signed in or not, and for a session cookie that does not verify', async () => {
    const callers: [string, string][] = [
      ['Authorization', `Bearer ${admin.jwt}`],
      ['Authorization', `bearer   ${admin.jwt}`],
      ['Authorization', 'Basic dXNlcjpwYXNz'],
      ['Authorization', 'Bearer prt_not-a-session'],
      ['Cookie', 'registry_session =not-a-jwt'],
    ];
    for (const [name, value] of callers) {
      await emptyCache();
      const bypassed = await detail().set(name, value).expect(200);
      expect(bypassed.headers['x-cache']).toBeUndefined();
      // Not stored: the next anonymous read computes its own answer.
      expect((await detail().expect(200)).headers['x-cache']).toBe('miss');
      // Not served: a primed entry is not what this caller gets.
      expect((await detail().set(name, value).expect(200)).headers['x-cache']).toBeUndefined();
    }
    // A cookie that is not the session is no reason to skip the cache.
    expect((await detail().set('Cookie', 'theme=dark; registry_sessions=x; xregistry_session=y').expect(200)).headers['x-cache']).toBe(
      'hit',
    );
  });

  it('empties the cache after a write the router accepts, in whatever spelling the path arrives', async () => {
    const verified = async () => (await detail().expect(200)).body.verified as boolean;
    const writes: [string, boolean][] = [
      ['/API/ADMIN/PLUGINS/alpha/UNVERIFY', false],
      ['/Api/Admin/Plugins/alpha/verify', true],
      ['/api/admin/plugins/alpha/unverify/', false],
      ['/api/admin/plugins/%61lpha/verify', true],
    ];
    for (const [path, after] of writes) {
      const before = await verified();
      expect((await detail().expect(200)).headers['x-cache']).toBe('hit');
      const res = await request(w.app.url).post(path).set('Authorization', `Bearer ${admin.jwt}`);
      if (res.status === 404) {
        // Case-sensitive routing refuses the spelling: nothing changed, and the entry still holds.
        expect(await verified()).toBe(before);
        continue;
      }
      expect(res.status).toBe(200);
      const next = await detail().expect(200);
      expect(next.headers['x-cache']).toBe('miss');
      expect(next.body.verified).toBe(after);
    }
  });
});

@Controller('api/plugins')
class ProbeController {
  // One of the paths the cache serves; the answer's Cache-Control is chosen by the slug.
  @Get(':slug')
  probe(@Param('slug') slug: string, @Res({ passthrough: true }) response: Response) {
    const cacheControl: Record<string, string> = {
      public: 'public, max-age=60',
      private: 'private, max-age=60',
      'no-store': 'no-store',
      'public-no-store': 'public, max-age=60, no-store',
      'private-field': 'public, max-age=60, private="X-Who"',
      shouting: 'Public, Max-Age=60, PRIVATE',
    };
    response.setHeader('Cache-Control', cacheControl[slug] ?? 'public, max-age=60');
    return { slug, computedAt: process.hrtime.bigint().toString() };
  }

  @Get(':slug/latest')
  @Header('Cache-Control', 'public, max-age=60')
  sets(@Res({ passthrough: true }) response: Response) {
    response.cookie('who', 'you');
    return { computedAt: process.hrtime.bigint().toString() };
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

describe.each(process.env.REDIS_URL ? ['memory', 'redis'] : ['memory'])(
  'response cache never stores a private or no-store answer (%s store)',
  (kind) => {
    let app: NestExpressApplication;
    let redis: Redis | null = null;

    beforeAll(async () => {
      const config = loadConfig({ NODE_ENV: 'test' });
      @Module({ imports: [ConfigModule.forRoot(config), CommonModule, ProbeModule] })
      class TestModule {}
      app = await NestFactory.create<NestExpressApplication>(TestModule, { logger: false, bodyParser: false });
      redis = kind === 'redis' ? new Redis(process.env.REDIS_URL as string) : null;
      const store = redis
        ? new RedisResponseStore(redis, `probe-${process.pid}-${Date.now()}:responses`)
        : new MemoryResponseStore({ maxEntries: 100, maxBytes: 1_000_000 });
      configureHttp(app, config, createLogger('silent'), { responseCache: new ResponseCache(store, 60_000, { warn: () => undefined }) });
      await app.init();
    });
    afterAll(async () => {
      await app?.close();
      redis?.disconnect();
    });

    // Three asks: an answer is stored on its second, so the third is the one a stored answer serves.
    const thrice = async (path: string) => {
      const first = await request(app.getHttpServer()).get(path).expect(200);
      const second = await request(app.getHttpServer()).get(path).expect(200);
      const third = await request(app.getHttpServer()).get(path).expect(200);
      return { first, second, third };
    };

    it.each(['private', 'no-store', 'public-no-store', 'private-field', 'shouting'])('computes every %s answer afresh', async (slug) => {
      const { second, third } = await thrice(`/api/plugins/${slug}`);
      expect(third.headers['x-cache']).not.toBe('hit');
      expect(third.body.computedAt).not.toBe(second.body.computedAt);
    });

    it('never stores an answer that sets a cookie', async () => {
      const { second, third } = await thrice('/api/plugins/any/latest');
      expect(third.headers['x-cache']).not.toBe('hit');
      expect(third.headers['set-cookie']).toBeDefined();
      expect(third.body.computedAt).not.toBe(second.body.computedAt);
    });

    it('still stores a public answer', async () => {
      const { second, third } = await thrice('/api/plugins/public');
      expect(third.headers['x-cache']).toBe('hit');
      expect(third.body.computedAt).toBe(second.body.computedAt);
    });
  },
);
