/**
 * Logs an operator can read: level names, the request id on every line written while a request
 * is served, one warning (no stack) for an upstream failure the service expected, and Nest's
 * start-up chatter kept at debug.
 */
import { Writable } from 'node:stream';
import request from 'supertest';
import { createLogger } from '../../src/common/logging/logger';
import { prettyLine } from '../../src/common/logging/pretty';
import { FakeForge } from '../support/fake-forge';
import { manifestYaml } from '../support/publishing';
import { userWithSession } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

describe('the log', () => {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(text) as Record<string, unknown>);
      done();
    },
  });
  let app: TestApp;
  let forge: FakeForge;
  let token: string;

  beforeAll(async () => {
    forge = await new FakeForge().start();
    app = await startTestApp({ FETCH_ALLOW_HOSTS: `127.0.0.1:${new URL(forge.url).port}` }, undefined, createLogger('debug', stream));
    const { jwt } = await userWithSession(app, 'logger');
    token = (
      await request(app.url)
        .post('/api/auth/me/tokens')
        .set('Authorization', `Bearer ${jwt}`)
        .send({ name: 'ci', scopes: ['publish:*'] })
    ).body.token;
  });
  afterAll(async () => {
    await app?.close();
    await forge?.stop();
  });

  const push = (slug: string, assetUrl: string, id: string) =>
    request(app.url)
      .post(`/api/publish/${slug}`)
      .set('Authorization', `Bearer ${token}`)
      .set('X-Request-Id', id)
      .send({
        manifest: manifestYaml({ name: slug, version: '1.0.0', readme: 'MISSING.md' }),
        manifestSource: 'plugin.yaml',
        version: '1.0.0',
        assets: [{ name: 'a.zip', url: assetUrl }],
        repoUrl: `${forge.url}/o/${slug}`,
      });

  it('writes level names, never numbers', () => {
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(typeof line.level).toBe('string');
  });

  it('keeps route mapping and module loading at debug', () => {
    const mapped = lines.filter((line) => line.context === 'RouterExplorer');
    expect(mapped.length).toBeGreaterThan(10);
    expect(mapped.every((line) => line.level === 'debug')).toBe(true);
  });

  it('puts the request id on every line a service writes while serving the request', async () => {
    await push('log-readme', forge.asset('/o/log-readme/a.zip', { size: 10 }), 'trace-me-1').expect(201);
    const mine = lines.filter((line) => line.reqId === 'trace-me-1');
    // The README warning comes from ReadmeIngest, deep inside the ingest: it still names its request.
    expect(mine.some((line) => String(line.msg).includes('MISSING.md'))).toBe(true);
    expect(mine.some((line) => (line.req as { id?: string } | undefined)?.id === 'trace-me-1')).toBe(true);
  });

  it('logs an asset the forge does not have as one warning line, without a stack', async () => {
    const before = lines.length;
    await push('log-missing', `${forge.url}/o/log-missing/gone.zip`, 'trace-me-2').expect(502);
    const mine = lines.slice(before).filter((line) => line.reqId === 'trace-me-2' && line.level !== 'debug');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ level: 'warn', problem: { code: 'asset-fetch-failed' } });
    expect(String(mine[0].msg)).toMatch(/^request answered 502: asset "a\.zip"/);
    expect(JSON.stringify(mine[0])).not.toContain('stack');
  });

  it('reads as one line per entry in the pretty format', () => {
    const text = prettyLine(
      JSON.stringify({ level: 'warn', time: Date.UTC(2026, 0, 1, 12, 0, 1, 5), msg: 'careful', context: 'Ingest', reqId: 'r1', slug: 'p' }),
    );
    expect(text).toBe('12:00:01.005 WARN  [Ingest] careful slug=p (req r1)\n');
  });
});
