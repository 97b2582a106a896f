import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';

/** Every line the server logs, as written (JSON text), through a pino destination the test holds. */
const logged: string[] = [];
const logText = () => logged.join('');

let server: TestServer;

beforeAll(async () => {
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged.push(chunk.toString('utf8'));
      done();
    },
  });
  server = await startTestServer({ demo: false, logger: pino({ level: 'info' }, destination) });
  await server.createUser('rev', 'reviewer', 'reviewer-pass-1');
});
afterAll(async () => {
  await server.close();
});

describe('the request log', () => {
  it('holds no session token: not the login response Set-Cookie, not a request Cookie, not an Authorization header', async () => {
    const client = new TestClient(server.url);
    await client.login('rev', 'reviewer-pass-1');
    const token = client.cookie.slice(client.cookie.indexOf('=') + 1);
    expect(token.length).toBeGreaterThan(20);

    expect((await client.get('/api/auth/me')).status).toBe(200);
    expect((await client.get('/api/charts')).status).toBe(200);
    expect((await client.get('/api/no-such-route')).status).toBe(404);
    const bearer = await fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}`, cookie: client.cookie } });
    expect(bearer.status).toBe(200);
    expect((await client.post('/api/auth/logout')).status).toBe(200);

    // pino-http writes a request's line when its response finishes, which may trail the client.
    await expect.poll(() => logged.filter((line) => line.includes('"url":"/api/auth/logout"')).length).toBe(1);
    const requestLines = logged.filter((line) => line.includes('"req":'));
    expect(requestLines.length).toBeGreaterThanOrEqual(6);
    expect(logText()).not.toContain(token);
    // The headers are there, censored: the log still says a cookie was sent.
    const login = requestLines.find((line) => line.includes('"url":"/api/auth/login"')) ?? '';
    expect(JSON.parse(login)).toMatchObject({ res: { statusCode: 200, headers: { 'set-cookie': '[redacted]' } } });
    const me = requestLines.find((line) => line.includes('"url":"/api/auth/me"')) ?? '';
    expect(JSON.parse(me)).toMatchObject({ req: { headers: { cookie: '[redacted]' } } });
  });
});
