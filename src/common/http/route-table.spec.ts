import express from 'express';
import { RouteTable } from './route-table';

describe('RouteTable', () => {
  const app = express();
  app.get('/api/plugins/:slug', (_req, res) => res.end());
  app.post('/api/publish/:slug', (_req, res) => res.end());
  app.get('/api/plugins/mine/drafts', (_req, res) => res.end());
  app.get('/api/plugins/:slug/latest', (_req, res) => res.end());
  const table = new RouteTable();
  table.load((app as unknown as { router: { stack: Parameters<RouteTable['load']>[0] } }).router.stack);

  it('finds the template and the methods of a path', () => {
    expect(table.templateFor('GET', '/api/plugins/hello')).toBe('/api/plugins/:slug');
    expect(table.templateFor('HEAD', '/api/plugins/hello')).toBe('/api/plugins/:slug');
    expect(table.methodsFor('/api/publish/hello')).toEqual(['POST']);
  });

  it('matches nothing, and throws nothing, for a path Express cannot decode', () => {
    expect(table.templateFor('GET', '/api/plugins/%FF')).toBeNull();
    expect(table.methodsFor('/api/plugins/%')).toEqual([]);
  });

  it('names the literal segments routes spell after a prefix, never a parameter', () => {
    expect([...table.literalSegmentsAfter('/api/plugins/')]).toEqual(['mine']);
    expect([...table.literalSegmentsAfter('/api/publish/')]).toEqual([]);
  });
});
