import { Writable } from 'node:stream';
import express from 'express';
import request from 'supertest';
import { createLogger, httpLogger, redactUrl } from './logger';

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
    for (const secret of ['prt_supersecrettokenvalue', 'secret-cookie-value', 'deadbeefsignature', 'gitlab-secret-token', 'giteasignaturehex', 'oauth-code-value']) {
      expect(all).not.toContain(secret);
    }
    const entry = JSON.parse(lines[lines.length - 1]);
    expect(entry.req.id).toBe('req-42');
    expect(entry.req.headers.authorization).toBe('[Redacted]');
    expect(entry.req.url).toBe('/hook?code=%5BRedacted%5D&page=2');
    expect(entry.res.statusCode).toBe(204);
  });

  it('logs a 503 as one warning without an error object, and other 5xx as errors without a made-up stack', async () => {
    const { lines, stream } = capture();
    const app = express();
    app.use(httpLogger(createLogger('info', stream)));
    app.get('/unready', (_req, res) => {
      res.status(503).json({ status: 'unavailable' });
    });
    app.get('/broken', (_req, res) => {
      res.status(500).end();
    });
    await request(app).get('/unready').expect(503);
    await request(app).get('/broken').expect(500);
    const [unready, broken] = lines.map((line) => JSON.parse(line));
    expect(lines).toHaveLength(2);
    expect(unready).toMatchObject({ level: 'warn', msg: 'request answered 503', res: { statusCode: 503 } });
    expect(broken).toMatchObject({ level: 'error', msg: 'request answered 500', res: { statusCode: 500 } });
    for (const entry of [unready, broken]) expect(entry).not.toHaveProperty('err');
  });

  it('redacts credential query parameters only', () => {
    expect(redactUrl('/auth/github/callback?state=s&code=c&x=1')).toBe('/auth/github/callback?state=%5BRedacted%5D&code=%5BRedacted%5D&x=1');
    expect(redactUrl('/api/plugins?search=a')).toBe('/api/plugins?search=a');
  });
});
