import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';
import { authApi } from '../../shared/api/auth';
import { chartsApi } from '../../shared/api/charts';

/** A server logging at `level` through a pino destination the test holds: every line as written (JSON text). */
async function loggingServer(level: 'info' | 'debug'): Promise<{ server: TestServer; logged: string[] }> {
  const logged: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged.push(chunk.toString('utf8'));
      done();
    },
  });
  const server = await startTestServer({ demo: false, logger: pino({ level }, destination) });
  await server.createUser('rev', 'reviewer', 'reviewer-pass-1');
  return { server, logged };
}

/** A login and a few requests with the session's token in a cookie and a bearer header; returns the token. */
async function requestsWithToken(server: TestServer, logged: string[]): Promise<string> {
  const client = new TestClient(server.url);
  await client.login('rev', 'reviewer-pass-1');
  const token = client.cookie.slice(client.cookie.indexOf('=') + 1);
  expect(token.length).toBeGreaterThan(20);

  expect((await client.send(authApi.me)).status).toBe(200);
  expect((await client.send(chartsApi.list)).status).toBe(200);
  expect((await client.get('/api/no-such-route')).status).toBe(404);
  const bearer = await fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}`, cookie: client.cookie } });
  expect(bearer.status).toBe(200);
  expect((await client.send(authApi.logout)).status).toBe(200);
  // pino-http writes a request's line when its response finishes, which may trail the client.
  await expect.poll(() => logged.filter((line) => line.includes('"url":"/api/auth/logout"')).length).toBe(1);
  return token;
}

let info: { server: TestServer; logged: string[] };
let debug: { server: TestServer; logged: string[] };

beforeAll(async () => {
  info = await loggingServer('info');
  debug = await loggingServer('debug');
});
afterAll(async () => {
  await info.server.close();
  await debug.server.close();
});

describe('the request log', () => {
  it('at info is one short line per request: method, URL, status and time, no headers, so no session token', async () => {
    const token = await requestsWithToken(info.server, info.logged);
    const requestLines = info.logged.filter((line) => line.includes('"req":'));
    expect(requestLines.length).toBeGreaterThanOrEqual(6);
    expect(info.logged.join('')).not.toContain(token);
    const me = JSON.parse(requestLines.find((line) => line.includes('"url":"/api/auth/me"')) ?? '{}') as Record<string, unknown>;
    expect(me).toMatchObject({ req: { method: 'GET', url: '/api/auth/me' }, res: { statusCode: 200 }, responseTime: expect.any(Number) as unknown });
    expect(Object.keys(me.req as object).sort()).toEqual(['id', 'method', 'url']);
    expect(Object.keys(me.res as object)).toEqual(['statusCode']);
    // Its message is the access-log line: method, path, status, milliseconds.
    expect(me.msg).toMatch(/^GET \/api\/auth\/me 200 \d+ms$/);
    const missing = JSON.parse(requestLines.find((line) => line.includes('"url":"/api/no-such-route"')) ?? '{}') as Record<string, unknown>;
    expect(missing.msg).toMatch(/^GET \/api\/no-such-route 404 \d+ms$/);
    // Each line has its own request id.
    const ids = requestLines.map((line) => (JSON.parse(line) as { req: { id: number } }).req.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('leaves out the health probe, which polls', async () => {
    expect((await fetch(`${info.server.url}/api/health`)).status).toBe(200);
    expect((await fetch(`${info.server.url}/api/auth/me`)).status).toBe(401);
    await expect.poll(() => info.logged.filter((line) => line.includes('"msg":"GET /api/auth/me 401')).length).toBeGreaterThan(0);
    expect(info.logged.filter((line) => line.includes('/api/health'))).toEqual([]);
  });

  it('at debug carries the headers with the session token censored: not the login response Set-Cookie, not a request Cookie, not an Authorization header', async () => {
    const token = await requestsWithToken(debug.server, debug.logged);
    const requestLines = debug.logged.filter((line) => line.includes('"req":'));
    expect(requestLines.length).toBeGreaterThanOrEqual(6);
    expect(debug.logged.join('')).not.toContain(token);
    // The headers are there, censored: the log still says a cookie was sent.
    const login = requestLines.find((line) => line.includes('"url":"/api/auth/login"')) ?? '';
    expect(JSON.parse(login)).toMatchObject({ res: { statusCode: 200, headers: { 'set-cookie': '[redacted]' } } });
    const me = requestLines.find((line) => line.includes('"url":"/api/auth/me"')) ?? '';
    expect(JSON.parse(me)).toMatchObject({ req: { headers: { cookie: '[redacted]' } } });
  });
});
