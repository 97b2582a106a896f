import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import helmet from 'helmet';
import { afterEach, describe, expect, it } from 'vitest';
import { securityHeaders } from './security-headers';

const servers: Server[] = [];
afterEach(() => Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve)))));

/** The headers a GET answers with through `middleware` (date and connection headers, which vary, left out). */
async function headersThrough(middleware: RequestHandler): Promise<Record<string, string>> {
  const app = express();
  app.disable('x-powered-by');
  app.use(middleware);
  app.get('/', (_req, res) => res.type('text').send('ok'));
  const server = createServer(app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  await res.text();
  const headers = Object.fromEntries(res.headers.entries());
  for (const varying of ['date', 'connection', 'keep-alive']) delete headers[varying];
  return headers;
}

const DIRECTIVES = { 'img-src': ["'self'", 'data:', 'blob:'], 'connect-src': ["'self'", 'ws:', 'wss:'] };

describe('security headers recorded once from helmet', () => {
  it('are exactly what helmet itself sends per request, over plain HTTP and over HTTPS', async () => {
    const overHttp = helmet({
      contentSecurityPolicy: { directives: { ...DIRECTIVES, 'upgrade-insecure-requests': null } },
      strictTransportSecurity: false,
      crossOriginOpenerPolicy: false,
    });
    const expectedHttp = await headersThrough(overHttp);
    expect(expectedHttp['content-security-policy']).toContain("img-src 'self' data: blob:");
    expect(await headersThrough(securityHeaders({ cookieSecure: false, trustProxy: false }))).toEqual(expectedHttp);
    const expectedHttps = await headersThrough(helmet({ contentSecurityPolicy: { directives: DIRECTIVES } }));
    expect(expectedHttps['strict-transport-security']).toMatch(/max-age=/);
    expect(await headersThrough(securityHeaders({ cookieSecure: true, trustProxy: false }))).toEqual(expectedHttps);
  });
});
