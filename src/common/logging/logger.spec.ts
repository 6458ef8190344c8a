import { Writable } from 'node:stream';
import express from 'express';
import request from 'supertest';
import { createLogger, httpLogger, redactUrl, unavailableSummary } from './logger';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, stream };
}

describe('structured request logging', () => {
  it('writes JSON lines with a request id and no credentials', async () => {
    const { lines, stream } = capture();
    const app = express();
    app.use(httpLogger(createLogger('info', stream)));
    app.post('/hook', (_req, res) => {
      res.setHeader('Set-Cookie', 'registry_session=secret-cookie-value');
      res.status(204).end();
    });
    await request(app)
      .post('/hook?code=oauth-code-value&page=2')
      .set('Authorization', 'Bearer prt_supersecrettokenvalue')
      .set('Cookie', 'registry_session=secret-cookie-value')
      .set('X-Hub-Signature-256', 'sha256=deadbeefsignature')
      .set('X-Gitlab-Token', 'gitlab-secret-token')
      .set('X-Gitea-Signature', 'giteasignaturehex')
      .set('X-Request-Id', 'req-42')
      .expect(204);
    const all = lines.join('\n');
    for (const secret of [
      'prt_supersecrettokenvalue',
      'secret-cookie-value',
      'deadbeefsignature',
      'gitlab-secret-token',
      'giteasignaturehex',
      'oauth-code-value',
    ]) {
      expect(all).not.toContain(secret);
    }
    const entry = JSON.parse(lines[lines.length - 1]);
    expect(entry.req).toEqual({ id: 'req-42', method: 'POST', url: '/hook?code=%5BRedacted%5D&page=2' });
    expect(entry.res).toEqual({ statusCode: 204 });
    expect(all).not.toContain('headers');
  });

  it('names the length and leaves out every header, the CSP included', async () => {
    const { lines, stream } = capture();
    const app = express();
    app.use(httpLogger(createLogger('info', stream)));
    app.get('/page', (_req, res) => {
      res.setHeader('Content-Security-Policy', "default-src 'self'");
      res.send('hello');
    });
    await request(app).get('/page').set('User-Agent', 'curl/8').expect(200);
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]);
    expect(entry).toMatchObject({ level: 'info', res: { statusCode: 200, length: 5 }, responseTime: expect.any(Number) });
    expect(lines[0]).not.toMatch(/default-src|curl|user-agent/i);
  });

  it('logs the calls a request marks internal at debug', async () => {
    const { lines, stream } = capture();
    const app = express();
    app.use(httpLogger(createLogger('debug', stream), { isInternal: (req) => req.headers['x-internal'] === 'yes' }));
    app.get('/api', (_req, res) => res.json({}));
    await request(app).get('/api').set('X-Internal', 'yes').set('X-Request-Id', 'page-1').expect(200);
    await request(app).get('/api').expect(200);
    expect(lines.map((line) => JSON.parse(line).level)).toEqual(['debug', 'info']);
    expect(JSON.parse(lines[0]).req.id).toBe('page-1');
  });

  it('logs a 503 at info with its cause summarised once as a warning, and other 5xx as errors without a made-up stack', async () => {
    const { lines, stream } = capture();
    const app = express();
    const logger = createLogger('info', stream);
    app.use(httpLogger(logger, { unavailable: unavailableSummary(logger) }));
    app.get('/unready', (_req, res) => {
      res.status(503).json({ status: 'unavailable' });
    });
    app.get('/broken', (_req, res) => {
      res.status(500).end();
    });
    for (let i = 0; i < 5; i++) await request(app).get('/unready').expect(503);
    await request(app).get('/broken').expect(500);
    const entries = lines.map((line) => JSON.parse(line));
    expect(entries.map((e) => e.level)).toEqual(['warn', 'info', 'info', 'info', 'info', 'info', 'error']);
    expect(entries[0]).toMatchObject({ cause: 'unavailable', since: 0 });
    expect(entries[1]).toMatchObject({ msg: 'request answered 503', res: { statusCode: 503 } });
    expect(entries[6]).toMatchObject({ msg: 'request answered 500', res: { statusCode: 500 } });
    for (const entry of entries) expect(entry).not.toHaveProperty('err');
  });

  it('redacts credential query parameters only', () => {
    expect(redactUrl('/auth/github/callback?state=s&code=c&x=1')).toBe(
      '/auth/github/callback?state=%5BRedacted%5D&code=%5BRedacted%5D&x=1',
    );
    expect(redactUrl('/api/plugins?search=a')).toBe('/api/plugins?search=a');
  });

  it('redacts passwords and secrets a form sent in the query, whatever the spelling of the key', () => {
    const redacted = redactUrl(
      '/account?username=alice&password=hunter22&confirm=hunter22&Client-Secret=s1&clientSecret=s2&SECRET=s3&Access_Token=t&page=2',
    );
    expect(redacted).toBe(
      '/account?username=%5BRedacted%5D&password=%5BRedacted%5D&confirm=%5BRedacted%5D&Client-Secret=%5BRedacted%5D&clientSecret=%5BRedacted%5D&SECRET=%5BRedacted%5D&Access_Token=%5BRedacted%5D&page=2',
    );
    for (const secret of ['alice', 'hunter22', 's1', 's2', 's3']) expect(redacted).not.toContain(secret);
  });
});
