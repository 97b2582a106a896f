import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * How the built client is served: its hashed files once for good (a page load asked again for
 * every one of them, ~60 a load, each a 304), the page itself always asked again (it names the
 * files of the current build).
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ demo: false });
});
afterAll(async () => {
  await server.close();
});

describe('the built client', () => {
  it('lets a browser keep every hashed file for good', async () => {
    const names = readdirSync(resolve('dist/client/assets'));
    const script = names.find((name) => /^index-[\w-]+\.js$/.test(name));
    const style = names.find((name) => name.endsWith('.css'));
    expect(script && style).toBeTruthy();
    for (const name of [script, style]) {
      const response = await fetch(`${server.url}/assets/${name}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
  });

  it('has the page asked for again at each load, on any client route', async () => {
    for (const path of ['/', '/items', '/charts/12']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(response.headers.get('cache-control')).not.toMatch(/immutable/);
      expect(response.headers.get('cache-control')).toMatch(/max-age=0/);
    }
  });

  it('answers a file the build does not have with 404, not with the page in its place', async () => {
    const response = await fetch(`${server.url}/assets/index-gone.js`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await response.text()).toMatch(/reload/);
  });
});
