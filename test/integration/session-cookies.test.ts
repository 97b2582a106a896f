import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../shared/errors';
import { MeResponseSchema } from '../../shared/api/auth';
import { TestClient } from '../support/http-client';
import { TestSockets } from '../support/sockets';
import { startTestServer, type TestServer } from '../support/test-server';
import { buildChart, buildItem, buildQa } from '../support/factories';

/**
 * A page on another port of the same host can set cookies for this one (cookies ignore ports),
 * on any path. The server sees only the Cookie header: several session cookies there are
 * refused and expired, a lone stray one is expired where it was sent, and logging in again
 * always works. Under HTTPS the cookie is `__Host-` and cannot be planted on a path at all.
 */

const ADA = { username: 'ada', password: 'admin-pass-123' };
const MALLORY = { username: 'mallory', password: 'mallory-pass-1' };

let server: TestServer;
let secure: TestServer;
let itemId: number;
const sockets: TestSockets[] = [];

beforeAll(async () => {
  [server, secure] = await Promise.all([startTestServer({ demo: false }), startTestServer({ demo: false, config: { cookieSecure: true } })]);
  for (const s of [server, secure]) {
    await s.createUser(ADA.username, 'admin', ADA.password);
    await s.createUser(MALLORY.username, 'reviewer', MALLORY.password);
  }
  const db = server.server.ctx.db;
  itemId = buildItem(db, { qaId: buildQa(db, { chartId: buildChart(db) }) });
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.closeAll();
});
afterAll(async () => {
  await Promise.all([server?.close(), secure?.close()]);
});

async function tokenOf(target: TestServer, user: { username: string; password: string }): Promise<string> {
  const client = new TestClient(target.url);
  await client.login(user.username, user.password);
  return client.cookie.slice(client.cookie.indexOf('=') + 1);
}

/** A request with exactly this Cookie header; its status, error body and Set-Cookie lines. */
async function send(target: TestServer, method: string, path: string, cookie: string, body?: unknown) {
  const response = await fetch(`${target.url}${path}`, {
    method,
    headers: { cookie, ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
    ...(method === 'GET' ? {} : { body: JSON.stringify(body ?? {}) }),
  });
  const json: unknown = await response.json();
  return { status: response.status, json, error: ErrorBodySchema.safeParse(json).data?.error, setCookie: response.headers.getSetCookie() };
}

/** The paths Set-Cookie lines expire `name` on (empty value, an Expires in the past). */
function expiredPaths(lines: string[], name: string): string[] {
  return lines
    .filter((line) => line.startsWith(`${name}=;`) && /expires=thu, 01 jan 1970/i.test(line))
    .map((line) => /path=([^;]*)/i.exec(line)?.[1] ?? '')
    .sort();
}

const comments = () => server.server.ctx.db.prepare('SELECT author_id FROM item_comments WHERE item_id = ?').all(itemId) as { author_id: number }[];
const userId = (username: string) => (server.server.ctx.db.prepare('SELECT id FROM users WHERE username = ?').get(username) as { id: number }).id;

describe('several session cookies in one request', () => {
  it('refuse junk planted on /api beside a live session, and expire every copy on the paths the request could carry', async () => {
    const ada = await tokenOf(server, ADA);
    // Browsers send the longer path first: the planted copy leads.
    const res = await send(server, 'GET', '/api/auth/me', `hqa_session=junk; hqa_session=${ada}`);
    expect(res.status).toBe(401);
    expect(res.error).toMatchObject({ code: 'session_cookie_conflict', field: 'headers.cookie' });
    expect(res.error?.message).toMatch(/2 session cookies were sent.*sign in again/);
    expect(expiredPaths(res.setCookie, 'hqa_session')).toEqual(['/', '/api', '/api/', '/api/auth', '/api/auth/', '/api/auth/me'].sort());
  });

  it("do not make a user's comment another's: a planted live token on /api/items is refused, nothing is stored", async () => {
    const [ada, mallory] = await Promise.all([tokenOf(server, ADA), tokenOf(server, MALLORY)]);
    const path = `/api/items/${itemId}/comments`;
    const before = comments().length;
    for (const cookie of [`hqa_session=${mallory}; hqa_session=${ada}`, `hqa_session=${ada}; hqa_session=${mallory}`]) {
      const res = await send(server, 'POST', path, cookie, { body: 'is the answer right?' });
      expect(res.status).toBe(401);
      expect(res.error?.code).toBe('session_cookie_conflict');
      expect(expiredPaths(res.setCookie, 'hqa_session')).toEqual(expect.arrayContaining(['/', '/api/items', '/api/items/', `/api/items/${itemId}`, path]));
    }
    expect(comments()).toHaveLength(before);

    // With her own cookie alone, ada's comment is hers.
    expect((await send(server, 'POST', path, `hqa_session=${ada}`, { body: 'is the answer right?' })).status).toBe(201);
    expect(comments().map((c) => c.author_id)).toEqual([userId('ada')]);
  });

  it('open no socket', async () => {
    const ada = await tokenOf(server, ADA);
    const client = new TestClient(server.url);
    client.cookie = `hqa_session=junk; hqa_session=${ada}`;
    const open = new TestSockets(server.url);
    sockets.push(open);
    expect(await open.outcome(client)).toBe('unauthenticated');
    client.cookie = `hqa_session=${ada}`;
    expect(await open.outcome(client)).toBe('connected');
  });

  it('are all ended by a logout, which expires every copy too', async () => {
    const [ada, mallory] = await Promise.all([tokenOf(server, ADA), tokenOf(server, MALLORY)]);
    const res = await send(server, 'POST', '/api/auth/logout', `hqa_session=${mallory}; hqa_session=${ada}`);
    expect(res.status).toBe(200);
    expect(expiredPaths(res.setCookie, 'hqa_session')).toEqual(['/', '/api', '/api/', '/api/auth', '/api/auth/', '/api/auth/logout'].sort());
    for (const token of [ada, mallory]) expect((await send(server, 'GET', '/api/auth/me', `hqa_session=${token}`)).status).toBe(401);
  });
});

describe('one session cookie that opens no session', () => {
  it('is expired on the paths it may live on, and logging in again clears copies on the login path before setting the new cookie on /', async () => {
    const res = await send(server, 'GET', '/api/charts', 'hqa_session=junk');
    expect(res.status).toBe(401);
    expect(res.error?.code).toBe('unauthenticated');
    expect(expiredPaths(res.setCookie, 'hqa_session')).toEqual(['/', '/api', '/api/', '/api/charts'].sort());

    const login = await send(server, 'POST', '/api/auth/login', 'hqa_session=junk; hqa_session=older', ADA);
    expect(login.status).toBe(200);
    expect(expiredPaths(login.setCookie, 'hqa_session')).toEqual(['/api', '/api/', '/api/auth', '/api/auth/', '/api/auth/login'].sort());
    // The new cookie comes last, so no expiry line after it can undo it.
    const fresh = login.setCookie.at(-1) ?? '';
    expect(fresh).toMatch(/^hqa_session=[\w-]{20,}; /);
    expect(fresh).toMatch(/; Path=\/(;|$)/);
    const token = fresh.slice('hqa_session='.length, fresh.indexOf(';'));
    expect(MeResponseSchema.parse((await send(server, 'GET', '/api/auth/me', `hqa_session=${token}`)).json).user.username).toBe('ada');
  });
});

describe('under HTTPS (HQA_COOKIE_SECURE)', () => {
  it('names the cookie __Host-hqa_session, Secure, on / and with no Domain, and reads only that name', async () => {
    const login = await send(secure, 'POST', '/api/auth/login', '', ADA);
    expect(login.status).toBe(200);
    const line = login.setCookie.find((l) => l.startsWith('__Host-hqa_session=') && !l.startsWith('__Host-hqa_session=;')) ?? '';
    expect(line).toMatch(/; Secure/);
    expect(line).toMatch(/; HttpOnly/);
    expect(line).toMatch(/; SameSite=Strict/);
    expect(line).toMatch(/; Path=\/(;|$)/);
    expect(line).not.toMatch(/domain=/i);
    // A __Host- cookie lives only on /: nothing to expire on other paths.
    expect(login.setCookie.filter((l) => /path=\/[^;]/i.test(l))).toEqual([]);
    const token = line.slice('__Host-hqa_session='.length, line.indexOf(';'));

    expect((await send(secure, 'GET', '/api/auth/me', `__Host-hqa_session=${token}`)).status).toBe(200);
    // The plain name is what a page on another port can plant: it means nothing here.
    expect((await send(secure, 'GET', '/api/auth/me', `hqa_session=${token}`)).status).toBe(401);
    expect((await send(secure, 'GET', '/api/auth/me', `hqa_session=junk; __Host-hqa_session=${token}`)).status).toBe(200);

    const client = new TestClient(secure.url);
    client.cookie = `__Host-hqa_session=${token}`;
    const open = new TestSockets(secure.url);
    sockets.push(open);
    expect(await open.outcome(client)).toBe('connected');
  });
});
