import express from 'express';
import helmet from 'helmet';
import request from 'supertest';
import { headersWrittenBy, securityHeaders } from './security-headers';

/** The headers of a response that went through `middleware`, without the ones every response has. */
async function headersAfter(middleware: express.RequestHandler): Promise<Record<string, string>> {
  const app = express();
  app.use(middleware);
  app.get('/', (_req, res) => {
    res.end('ok');
  });
  const { headers } = await request(app).get('/');
  const {
    date: _date,
    connection: _connection,
    'keep-alive': _keepAlive,
    'content-length': _length,
    ...rest
  } = headers as Record<string, string>;
  return rest;
}

describe('securityHeaders', () => {
  it.each(['http://registry.internal', 'https://registry.example.org'])('writes exactly what helmet writes, for %s', async (baseUrl) => {
    const https = baseUrl.startsWith('https:');
    const helmetItself = helmet({
      contentSecurityPolicy: { directives: { upgradeInsecureRequests: https ? [] : null } },
      strictTransportSecurity: https ? { maxAge: 180 * 24 * 3600 } : false,
      crossOriginResourcePolicy: { policy: 'cross-origin' },
    });
    const ours = await headersAfter(securityHeaders({ baseUrl }));
    expect(ours).toEqual(await headersAfter(helmetItself));
    expect(ours['x-powered-by']).toBeUndefined();
    expect(ours['content-security-policy']).toContain("default-src 'self'");
    expect('strict-transport-security' in ours).toBe(https);
  });

  it('refuses a middleware whose headers depend on the request', () => {
    const later: express.RequestHandler = (_req, _res, next) => void setImmediate(next);
    expect(() => headersWrittenBy(later)).toThrow(/did not finish at once/);
    const failing: express.RequestHandler = (_req, _res, next) => next(new Error('bad directive'));
    expect(() => headersWrittenBy(failing)).toThrow('bad directive');
  });
});
