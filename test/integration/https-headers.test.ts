import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../server/config';
import { startTestServer, type TestServer } from '../support/test-server';

/** Browsers on a LAN address or host name fetch every script over https:// when told to: a blank page. */
const UPGRADE = 'upgrade-insecure-requests';

const servers: TestServer[] = [];
async function serverWith(config: Partial<Config>): Promise<TestServer> {
  const server = await startTestServer({ demo: false, config });
  servers.push(server);
  return server;
}
let plain: TestServer;
let secureCookie: TestServer;
let proxied: TestServer;

beforeAll(async () => {
  [plain, secureCookie, proxied] = await Promise.all([serverWith({}), serverWith({ cookieSecure: true }), serverWith({ trustProxy: true })]);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function headersOf(server: TestServer, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}${path}`, { headers });
  await res.arrayBuffer();
  return { csp: res.headers.get('content-security-policy') ?? '', hsts: res.headers.get('strict-transport-security'), coop: res.headers.get('cross-origin-opener-policy') };
}

describe('HTTPS-only headers', () => {
  it.each(['/', '/login', '/api/health'])('over plain HTTP, %s has a CSP without upgrade-insecure-requests and no HSTS', async (path) => {
    const { csp, hsts, coop } = await headersOf(plain, path);
    expect(csp).toMatch(/default-src 'self'/);
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).not.toContain(UPGRADE);
    expect(hsts).toBeNull();
    expect(coop).toBeNull();
  });
  it('ignores X-Forwarded-Proto from a peer that is not a trusted proxy (anyone could send it)', async () => {
    const { csp, hsts } = await headersOf(plain, '/', { 'x-forwarded-proto': 'https' });
    expect(csp).not.toContain(UPGRADE);
    expect(hsts).toBeNull();
  });
  it('with HQA_COOKIE_SECURE, sends HSTS and upgrade-insecure-requests', async () => {
    const { csp, hsts, coop } = await headersOf(secureCookie, '/');
    expect(csp).toContain(UPGRADE);
    expect(hsts).toMatch(/max-age=\d+/);
    expect(coop).toBe('same-origin');
  });
  it("behind a trusted proxy, follows the proxy's X-Forwarded-Proto", async () => {
    const overHttps = await headersOf(proxied, '/', { 'x-forwarded-proto': 'https' });
    expect(overHttps.csp).toContain(UPGRADE);
    expect(overHttps.hsts).toMatch(/max-age=\d+/);
    const overHttp = await headersOf(proxied, '/', { 'x-forwarded-proto': 'http' });
    expect(overHttp.csp).not.toContain(UPGRADE);
    expect(overHttp.hsts).toBeNull();
  });
});
