import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connectSocket } from 'socket.io-client';
import { ErrorBodySchema } from '../../shared/errors';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
let admin: TestClient;
/** Another port of the same host: same-site, so a browser sends the SameSite=Strict cookie from it. */
const OTHER_ORIGIN = 'http://127.0.0.1:1';

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  admin = new TestClient(server.url);
  await admin.login('admin', server.server.adminPassword ?? '');
});
afterAll(async () => {
  await server.close();
});

/** A raw write with the admin's session cookie and exactly these headers. */
async function write(path: string, headers: Record<string, string>, body?: string) {
  const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { cookie: admin.cookie, ...headers }, body });
  return { status: response.status, body: ErrorBodySchema.safeParse(await response.json()).data };
}

const newUser = (username: string) => JSON.stringify({ username, role: 'admin', password: 'forged-pass-1' });
const userExists = (username: string) => server.server.ctx.db.prepare('SELECT 1 FROM users WHERE username = ?').get(username) !== undefined;
const sessionAlive = async () => (await admin.get('/api/auth/me')).status === 200;

describe('writes need a JSON body (415 unsupported_media_type)', () => {
  it.each([
    ['text/plain (an HTML form with enctype=text/plain)', 'text/plain'],
    ['urlencoded (a plain HTML form)', 'application/x-www-form-urlencoded'],
    ['multipart', 'multipart/form-data; boundary=x'],
  ])('refuses %s, even when it holds JSON, and changes nothing', async (_name, type) => {
    const res = await write('/api/users', { 'content-type': type }, newUser('forged'));
    expect(res.status).toBe(415);
    expect(res.body?.error).toMatchObject({ code: 'unsupported_media_type', field: 'headers.content-type' });
    expect(userExists('forged')).toBe(false);
  });
  it('refuses a write with no Content-Type at all, body or not: a body-less logout leaves the session alive', async () => {
    const res = await write('/api/auth/logout', {});
    expect(res.status).toBe(415);
    expect(await sessionAlive()).toBe(true);
  });
  it('takes application/json, with or without charset=utf-8', async () => {
    expect((await write('/api/users', { 'content-type': 'application/json' }, newUser('plain-json'))).status).toBe(201);
    expect((await write('/api/users', { 'content-type': 'Application/JSON; charset="UTF-8"' }, newUser('utf8-json'))).status).toBe(201);
  });
});

describe('writes from another origin (403 bad_origin)', () => {
  it.each([
    ['another port of the same host', { origin: OTHER_ORIGIN }],
    ['another host', { origin: 'http://evil.example' }],
    ['an opaque origin (sandboxed frame, file:)', { origin: 'null' }],
    ['a same-site Sec-Fetch-Site without Origin', { 'sec-fetch-site': 'same-site' }],
    ['a cross-site Sec-Fetch-Site without Origin', { 'sec-fetch-site': 'cross-site' }],
  ])('refuses %s and changes nothing', async (_name, headers) => {
    const res = await write('/api/users', { 'content-type': 'application/json', ...headers }, newUser('forged'));
    expect(res.status).toBe(403);
    expect(res.body?.error.code).toBe('bad_origin');
    expect(userExists('forged')).toBe(false);
  });
  it('refuses a forged logout and a forged login (login CSRF)', async () => {
    expect((await write('/api/auth/logout', { 'content-type': 'application/json', origin: OTHER_ORIGIN }, '{}')).status).toBe(403);
    expect(await sessionAlive()).toBe(true);
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: OTHER_ORIGIN },
      body: JSON.stringify({ username: 'admin', password: server.server.adminPassword }),
    });
    expect(login.status).toBe(403);
    expect(login.headers.get('set-cookie')).toBeNull();
  });
  it("takes the server's own Origin, Sec-Fetch-Site: same-origin, and neither (the CLI, curl, scripts)", async () => {
    const json = { 'content-type': 'application/json' };
    expect((await write('/api/users', { ...json, origin: server.url }, newUser('same-origin'))).status).toBe(201);
    expect((await write('/api/users', { ...json, 'sec-fetch-site': 'same-origin' }, newUser('fetch-site'))).status).toBe(201);
    expect((await write('/api/users', json, newUser('no-browser'))).status).toBe(201);
  });
  it('leaves reads alone: a GET from another origin is answered', async () => {
    const res = await fetch(`${server.url}/api/auth/me`, { headers: { cookie: admin.cookie, origin: OTHER_ORIGIN } });
    expect(res.status).toBe(200);
  });
});

describe('the socket.io handshake checks Origin too', () => {
  /** Resolves 'connected' or the connect error's message. */
  function connectWith(headers: Record<string, string>, transport: 'websocket' | 'polling'): Promise<string> {
    const socket = connectSocket(server.url, { extraHeaders: { cookie: admin.cookie, ...headers }, transports: [transport], reconnection: false });
    return new Promise<string>((resolve) => {
      socket.on('connect', () => resolve('connected'));
      socket.on('connect_error', (error) => resolve(error.message));
    }).finally(() => socket.close());
  }
  it.each(['websocket', 'polling'] as const)('refuses another origin over %s, takes its own origin and none', async (transport) => {
    expect(await connectWith({ origin: OTHER_ORIGIN }, transport)).not.toBe('connected');
    expect(await connectWith({ origin: server.url }, transport)).toBe('connected');
    expect(await connectWith({}, transport)).toBe('connected');
  });
});
