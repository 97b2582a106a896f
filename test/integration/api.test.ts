import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { chartsApi, UpdateChartResponseSchema } from '../../shared/api/charts';
import { usersApi } from '../../shared/api/users';
import { ErrorBodySchema } from '../../shared/errors';
import { healthApi } from '../../shared/api/health';
import type { ServerToClientEvents } from '../../shared/events';
import { importSplit } from '../../server/import/import-split';
import { TestClient } from '../support/http-client';
import { CHARTQA_EXTRA } from '../support/paths';
import { startTestServer, type TestServer } from '../support/test-server';
import { onEvent } from '../support/socket-client';
import { authApi } from '../../shared/api/auth';

let server: TestServer;
const admin = () => new TestClient(server.url);

beforeAll(async () => {
  server = await startTestServer();
  await server.createUser('cora', 'curator', 'curator-pass-1');
  await server.createUser('rev', 'reviewer', 'reviewer-pass-1');
  await server.createUser('root', 'admin', 'admin-pass-123');
  importSplit(server.server.ctx.db, CHARTQA_EXTRA);
});
afterAll(async () => {
  await server.close();
});

async function as(username: string, password: string): Promise<TestClient> {
  const client = new TestClient(server.url);
  await client.login(username, password);
  return client;
}

function expectError(res: { status: number; body: unknown }, status: number, code: string, field?: string) {
  expect(res.status).toBe(status);
  const body = ErrorBodySchema.parse(res.body);
  expect(body.error.code).toBe(code);
  if (field) expect(body.error.field).toBe(field);
}

describe('first start', () => {
  it('creates an admin with a random password that logs in', async () => {
    expect(server.server.adminPassword).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const client = admin();
    await client.login('admin', server.server.adminPassword ?? '');
    expect((await client.send(authApi.me)).status).toBe(200);
  });
  it('imports the demo split on an empty database', async () => {
    const health = await admin().call(healthApi.get);
    expect(health.engine).toBe('offline');
    expect(health.charts).toBeGreaterThanOrEqual(60);
  });
  it('sends security headers', async () => {
    const res = await admin().send(healthApi.get);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    expect(res.headers.get('x-powered-by')).toBeNull();
  });
});

describe('authentication and roles', () => {
  it('answers 401 with the error body without a session', async () => {
    expectError(await admin().send(chartsApi.list), 401, 'unauthenticated');
    expectError(await admin().send(usersApi.list), 401, 'unauthenticated');
    expectError(await admin().send(chartsApi.image, { params: { id: 1 } }), 401, 'unauthenticated');
  });
  it('refuses a wrong password and sets an httpOnly SameSite=Strict cookie on success', async () => {
    expectError(await admin().send(authApi.login, { body: { username: 'rev', password: 'nope-nope' } }), 401, 'unauthenticated');
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'rev', password: 'reviewer-pass-1' }),
    });
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
  });
  it('answers 403 when the role is too low', async () => {
    const reviewer = await as('rev', 'reviewer-pass-1');
    expectError(await reviewer.send(chartsApi.update, { params: { id: 1 }, body: { chart_type: 'pie' } }), 403, 'forbidden');
    expectError(await reviewer.send(usersApi.list), 403, 'forbidden');
    const curator = await as('cora', 'curator-pass-1');
    expectError(await curator.send(usersApi.list), 403, 'forbidden');
  });
  it('logs out: the session no longer works', async () => {
    const reviewer = await as('rev', 'reviewer-pass-1');
    const cookie = reviewer.cookie;
    await reviewer.send(authApi.logout);
    reviewer.cookie = cookie;
    expectError(await reviewer.send(authApi.me), 401, 'unauthenticated');
  });
});

describe('validation', () => {
  it('names the field of a bad body or query', async () => {
    const curator = await as('cora', 'curator-pass-1');
    expectError(await curator.send(chartsApi.update, { params: { id: 1 }, body: { chart_type: 'radar' } }), 400, 'bad_request', 'body.chart_type');
    expectError(await curator.send(chartsApi.list, { query: { page_size: 1000 } }), 400, 'bad_request', 'query.page_size');
    // A path whose id is not a decimal id names nothing (input-edges.test.ts has the forms).
    expectError(await curator.send(chartsApi.get, { params: { id: 'abc' } }), 404, 'not_found', 'params.id');
    expectError(await curator.send(chartsApi.update, { params: { id: 1 }, body: '{not json' }), 400, 'bad_request', 'body');
    expectError(await curator.get('/api/nothing-here'), 404, 'not_found');
  });
  it('refuses bodies over the size limit', async () => {
    const curator = await as('cora', 'curator-pass-1');
    expectError(await curator.send(chartsApi.update, { params: { id: 1 }, body: { chart_type: 'pie', pad: 'x'.repeat(300 * 1024) } }), 413, 'payload_too_large');
  });
});

describe('charts', () => {
  it('lists, filters, searches and pages', async () => {
    const client = await as('rev', 'reviewer-pass-1');
    const all = await client.call(chartsApi.list, { query: { page_size: 10 } });
    expect(all.total).toBeGreaterThanOrEqual(80);
    expect(all.charts).toHaveLength(10);
    const page2 = await client.call(chartsApi.list, { query: { page_size: 10, page: 2 } });
    expect(page2.charts[0]?.id).not.toBe(all.charts[0]?.id);
    const train = await client.call(chartsApi.list, { query: { split: 'train', page_size: 50 } });
    expect(train.total).toBe(20);
    expect(train.charts.every((c) => c.has_image)).toBe(true);
    const search = await client.call(chartsApi.list, { query: { q: 'Mercadona' } });
    expect(search.charts.map((c) => c.imgname)).toEqual(['multi_col_80420.png']);
    const facets = await client.call(chartsApi.facets);
    expect(facets.splits.map((s) => s.split)).toEqual(['demo', 'train']);
    const pies = await client.call(chartsApi.list, { query: { chart_type: 'pie', page_size: 200 } });
    expect(pies.charts.length).toBeGreaterThan(0);
    expect(pies.charts.every((c) => c.chart_type === 'pie')).toBe(true);
  });

  it('shows a chart with its table and questions', async () => {
    const client = await as('rev', 'reviewer-pass-1');
    const list = await client.call(chartsApi.list, { query: { q: 'two_col_41347' } });
    const id = list.charts[0]?.id ?? 0;
    const detail = await client.call(chartsApi.get, { params: { id } });
    expect(detail.chart.data_table?.rows.map((r) => r.label)).toContain('China');
    expect(detail.qas).toEqual([expect.objectContaining({ query: "Which country was Vietnam's most important import partner in 2019?", label: 'China', source: 'augmented' })]);
    expectError(await client.send(chartsApi.get, { params: { id: 999999 } }), 404, 'not_found');
  });

  it('serves the original PNG, or one rendered from the table', async () => {
    const client = await as('rev', 'reviewer-pass-1');
    const train = await client.call(chartsApi.list, { query: { split: 'train', page_size: 1 } });
    const original = await client.send(chartsApi.image, { params: { id: train.charts[0]?.id } });
    expect(original.status).toBe(200);
    expect(original.headers.get('x-chart-image')).toBe('original');
    const demo = await client.call(chartsApi.list, { query: { split: 'demo', page_size: 1 } });
    const rendered = await client.send(chartsApi.image, { params: { id: demo.charts[0]?.id } });
    expect(rendered.status).toBe(200);
    expect(rendered.headers.get('content-type')).toBe('image/png');
    expect(rendered.headers.get('x-chart-image')).toBe('rendered');
    expect(Buffer.from(rendered.body as ArrayBuffer).subarray(1, 4).toString()).toBe('PNG');
  });

  it('lets a curator change the type, and tells every open client at once', async () => {
    const curator = await as('cora', 'curator-pass-1');
    const reviewer = await as('rev', 'reviewer-pass-1');
    const socket: Socket<ServerToClientEvents> = connectSocket(server.url, { extraHeaders: { cookie: reviewer.cookie }, transports: ['websocket'] });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.on('connect', () => resolve());
        socket.on('connect_error', reject);
      });
      const event = new Promise<Parameters<ServerToClientEvents['chart.updated']>[0]>((resolve) => onEvent(socket, 'chart.updated', resolve));
      const res = await curator.send(chartsApi.update, { params: { id: 1 }, body: { chart_type: 'pie' } });
      expect(res.status).toBe(200);
      expect(UpdateChartResponseSchema.parse(res.body).chart).toMatchObject({ id: 1, chart_type: 'pie', type_source: 'curator' });
      expect((await event).chart).toMatchObject({ id: 1, chart_type: 'pie', type_source: 'curator' });
    } finally {
      socket.close();
    }
  });
});

describe('realtime', () => {
  it('refuses a socket without a session', async () => {
    const socket = connectSocket(server.url, { transports: ['websocket'], reconnection: false });
    const error = await new Promise<Error>((resolve) => socket.on('connect_error', resolve));
    expect(error.message).toBe('unauthenticated');
    socket.close();
  });
  it('announces how many are online (who they are: test/integration/blind-review.test.ts)', async () => {
    const reviewer = await as('rev', 'reviewer-pass-1');
    const socket: Socket<ServerToClientEvents> = connectSocket(server.url, { extraHeaders: { cookie: reviewer.cookie }, transports: ['websocket'] });
    const presence = await new Promise<Parameters<ServerToClientEvents['presence.changed']>[0]>((resolve) => onEvent(socket, 'presence.changed', resolve));
    expect(presence.online).toBeGreaterThanOrEqual(1);
    socket.close();
  });
});

describe('users (admin)', () => {
  it('adds users, generating a password once, and changes roles', async () => {
    const root = await as('root', 'admin-pass-123');
    const created = await root.call(usersApi.create, { body: { username: 'newbie', role: 'reviewer' } });
    expect(created.generated_password).toBeTruthy();
    await as('newbie', created.generated_password ?? '');
    expectError(await root.send(usersApi.create, { body: { username: 'NEWBIE', role: 'reviewer' } }), 409, 'conflict', 'username');
    expectError(await root.send(usersApi.create, { body: { username: 'x', role: 'boss' } }), 400, 'bad_request');
    const patched = await root.send(usersApi.update, { params: { id: created.user.id }, body: { role: 'curator' } });
    expect(patched.status).toBe(200);
    const users = await root.call(usersApi.list);
    expect(users.users.find((u) => u.username === 'newbie')?.role).toBe('curator');
  });
});

describe('login rate limit', () => {
  it('answers 429 after too many failed logins', async () => {
    const limited = await startTestServer({ demo: false, config: { loginRateLimit: 3 } });
    try {
      const client = new TestClient(limited.url);
      for (let i = 0; i < 3; i++) expect((await client.send(authApi.login, { body: { username: 'admin', password: 'wrong-wrong' } })).status).toBe(401);
      expectError(await client.send(authApi.login, { body: { username: 'admin', password: 'wrong-wrong' } }), 429, 'rate_limited');
    } finally {
      await limited.close();
    }
  });
});
