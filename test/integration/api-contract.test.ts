import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import express, { Router } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Endpoint } from '../../shared/api/endpoint';
import { healthApi } from '../../shared/api/health';
import { apiRouter, handle, mountedEndpoint } from '../../server/http/handle';
import { appRoutes, type MountedRoute } from '../support/mounted-routes';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * The contract is code: every route the app serves under /api is one `handle` mounted from a
 * descriptor of `shared/api/*`, with the descriptor's method and path, and every descriptor
 * there is mounted exactly once. A route added by hand, or a descriptor nobody serves, fails here.
 */

function isEndpoint(value: unknown): value is Endpoint {
  return typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'schemas' in value;
}

/** Every descriptor exported by shared/api/*.ts, alone or in an area's object (`reviewApi.submit`). */
async function sharedDescriptors(): Promise<Map<Endpoint, string>> {
  const dir = join(import.meta.dirname, '../../shared/api');
  const found = new Map<Endpoint, string>();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))) {
    const module = (await import(join(dir, file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) {
      if (isEndpoint(value)) found.set(value, `${file}:${name}`);
      else if (typeof value === 'object' && value !== null) {
        for (const [key, inner] of Object.entries(value)) if (isEndpoint(inner)) found.set(inner, `${file}:${name}.${key}`);
      }
    }
  }
  return found;
}

let server: TestServer;
let routes: MountedRoute[];
let descriptors: Map<Endpoint, string>;

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  routes = appRoutes(server.server.app);
  descriptors = await sharedDescriptors();
});
afterAll(async () => {
  await server.close();
});

describe('the API contract', () => {
  it('serves every /api route through handle, from a descriptor with its own method and path', () => {
    const api = routes.filter((route) => route.path.startsWith('/api'));
    const byHand = api.filter((route) => !mountedEndpoint(route.handler)).map((route) => `${route.methods.join(',')} ${route.path}`);
    expect(byHand).toEqual([]);
    for (const route of api) {
      const e = mountedEndpoint(route.handler);
      expect({ path: route.path, methods: route.methods }).toEqual({ path: e?.path, methods: [e?.method] });
    }
  });

  it('serves nothing else but the single-page app', () => {
    expect(routes.filter((route) => !route.path.startsWith('/api')).map((route) => route.path)).toEqual(['/{*splat}']);
  });

  it('mounts every descriptor of shared/api exactly once', () => {
    const mounts = new Map<Endpoint, number>();
    for (const route of routes) {
      const e = mountedEndpoint(route.handler);
      if (e) mounts.set(e, (mounts.get(e) ?? 0) + 1);
    }
    const wrong = [...descriptors].filter(([e]) => mounts.get(e) !== 1).map(([e, name]) => `${name} (${e.method} ${e.path}): mounted ${mounts.get(e) ?? 0} times`);
    expect(wrong).toEqual([]);
    // A descriptor mounted but not exported from shared/api would be a contract the client cannot call.
    expect([...mounts.keys()].filter((e) => !descriptors.has(e)).map((e) => `${e.method} ${e.path}`)).toEqual([]);
    expect(descriptors.size).toBe(119);
  });

  it('would see a route mounted by hand, however deep', () => {
    const app = express();
    const nested = Router();
    nested.get('/api/by-hand', (_req, res) => res.json({}));
    const api = apiRouter(server.server.ctx.db);
    handle(api, healthApi.get, 'public', () => ({ status: 'ok', version: 'x', engine: 'offline', charts: 0 }));
    app.use(api.router, Router().use(nested));
    const found = appRoutes(app);
    expect(found.map((route) => [route.path, mountedEndpoint(route.handler)])).toEqual([
      ['/api/health', healthApi.get],
      ['/api/by-hand', undefined],
    ]);
  });

  it('gives each method and path one descriptor', () => {
    const keys = [...descriptors.keys()].map((e) => `${e.method} ${e.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
