import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { ChartDetailResponseSchema, ChartFacetsResponseSchema, ChartListResponseSchema, UpdateChartResponseSchema } from '../../shared/api/charts';
import { CreateUserResponseSchema, UserListResponseSchema } from '../../shared/api/users';
import { ErrorBodySchema } from '../../shared/errors';
import { HealthResponseSchema } from '../../shared/api/health';
import type { ServerToClientEvents } from '../../shared/events';
import { importSplit } from '../../server/import/import-split';
import { TestClient } from '../support/http-client';
import { CHARTQA_EXTRA } from '../support/paths';
import { startTestServer, type TestServer } from '../support/test-server';
import { onEvent } from '../support/socket-client';

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
    expect((await client.get('/api/auth/me')).status).toBe(200);
  });
  it('imports the demo split on an empty database', async () => {
    const health = HealthResponseSchema.parse((await admin().get('/api/health')).body);
    expect(health.engine).toBe('offline');
    expect(health.charts).toBeGreaterThanOrEqual(60);
  });
  it('sends security headers', async () => {
    const res = await admin().get('/api/health');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    expect(res.headers.get('x-powered-by')).toBeNull();
  });
});

describe('authentication and roles', () => {
  it('answers 401 with the error body without a session', async () => {
    expectError(await admin().get('/api/charts'), 401, 'unauthenticated');
    expectError(await admin().get('/api/users'), 401, 'unauthenticated');
    expectError(await admin().get('/api/charts/1/image'), 401, 'unauthenticated');
  });
  it('refuses a wrong password and sets an httpOnly SameSite=Strict cookie on success', async () => {
    expectError(await admin().post('/api/auth/login', { username: 'rev', password: 'nope-nope' }), 401, 'unauthenticated');
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
    expectError(await reviewer.patch('/api/charts/1', { chart_type: 'pie' }), 403, 'forbidden');
    expectError(await reviewer.get('/api/users'), 403, 'forbidden');
    const curator = await as('cora', 'curator-pass-1');
    expectError(await curator.get('/api/users'), 403, 'forbidden');
  });
  it('logs out: the session no longer works', async () => {
    const reviewer = await as('rev', 'reviewer-pass-1');
    const cookie = reviewer.cookie;
    await reviewer.post('/api/auth/logout');
    reviewer.cookie = cookie;
    expectError(await reviewer.get('/api/auth/me'), 401, 'unauthenticated');
  });
});

describe('validation', () => {
  it('names the field of a bad body or query', async () => {
    const curator = await as('cora', 'curator-pass-1');
    expectError(await curator.patch('/api/charts/1', { chart_type: 'radar' }), 400, 'bad_request', 'body.chart_type');
    expectError(await curator.get('/api/charts?page_size=1000'), 400, 'bad_request', 'query.page_size');
    // A path whose id is not a decimal id names nothing (input-edges.test.ts has the forms).
    expectError(await curator.get('/api/charts/abc'), 404, 'not_found', 'params.id');
    expectError(await curator.request('PATCH', '/api/charts/1', '{not json'), 400, 'bad_request', 'body');
    expectError(await curator.get('/api/nothing-here'), 404, 'not_found');
  });
  it('refuses bodies over the size limit', async () => {
    const curator = await as('cora', 'curator-pass-1');
    expectError(await curator.patch('/api/charts/1', { chart_type: 'pie', pad: 'x'.repeat(300 * 1024) }), 413, 'payload_too_large');
  });
});

describe('charts', () => {
  it('lists, filters, searches and pages', async () => {
    const client = await as('rev', 'reviewer-pass-1');
    const all = ChartListResponseSchema.parse((await client.get('/api/charts?page_size=10')).body);
    expect(all.total).toBeGreaterThanOrEqual(80);
    expect(all.charts).toHaveLength(10);
    const page2 = ChartListResponseSchema.parse((await client.get('/api/charts?page_size=10&page=2')).body);
    expect(page2.charts[0]?.id).not.toBe(all.charts[0]?.id);
    const train = ChartListResponseSchema.parse((await client.get('/api/charts?split=train&page_size=50')).body);
    expect(train.total).toBe(20);
    expect(train.charts.every((c) => c.has_image)).toBe(true);
    const search = ChartListResponseSchema.parse((await client.get('/api/charts?q=Mercadona')).body);
    expect(search.charts.map((c) => c.imgname)).toEqual(['multi_col_80420.png']);
    const facets = ChartFacetsResponseSchema.parse((await client.get('/api/charts/facets')).body);
    expect(facets.splits.map((s) => s.split)).toEqual(['demo', 'train']);
    const pies = ChartListResponseSchema.parse((await client.get('/api/charts?chart_type=pie&page_size=200')).body);
    expect(pies.charts.length).toBeGreaterThan(0);
    expect(pies.charts.every((c) => c.chart_type === 'pie')).toBe(true);
  });

  it('shows a chart with its table and questions', async () => {
    const client = await as('rev', 'reviewer-pass-1');
    const list = ChartListResponseSchema.parse((await client.get('/api/charts?q=two_col_41347')).body);
    const id = list.charts[0]?.id;
    const detail = ChartDetailResponseSchema.parse((await client.get(`/api/charts/${id}`)).body);
    expect(detail.chart.data_table?.rows.map((r) => r.label)).toContain('China');
    expect(detail.qas).toEqual([expect.objectContaining({ query: "Which country was Vietnam's most important import partner in 2019?", label: 'China', source: 'augmented' })]);
    expectError(await client.get('/api/charts/999999'), 404, 'not_found');
  });

  it('serves the original PNG, or one rendered from the table', async () => {
    const client = await as('rev', 'reviewer-pass-1');
    const train = ChartListResponseSchema.parse((await client.get('/api/charts?split=train&page_size=1')).body);
    const original = await client.get(`/api/charts/${train.charts[0]?.id}/image`);
    expect(original.status).toBe(200);
    expect(original.headers.get('x-chart-image')).toBe('original');
    const demo = ChartListResponseSchema.parse((await client.get('/api/charts?split=demo&page_size=1')).body);
    const rendered = await client.get(`/api/charts/${demo.charts[0]?.id}/image`);
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
      const res = await curator.patch('/api/charts/1', { chart_type: 'pie' });
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
    const created = CreateUserResponseSchema.parse((await root.post('/api/users', { username: 'newbie', role: 'reviewer' })).body);
    expect(created.generated_password).toBeTruthy();
    await as('newbie', created.generated_password ?? '');
    expectError(await root.post('/api/users', { username: 'NEWBIE', role: 'reviewer' }), 409, 'conflict', 'username');
    expectError(await root.post('/api/users', { username: 'x', role: 'boss' }), 400, 'bad_request');
    const patched = await root.patch(`/api/users/${created.user.id}`, { role: 'curator' });
    expect(patched.status).toBe(200);
    const users = UserListResponseSchema.parse((await root.get('/api/users')).body);
    expect(users.users.find((u) => u.username === 'newbie')?.role).toBe('curator');
  });
});

describe('login rate limit', () => {
  it('answers 429 after too many failed logins', async () => {
    const limited = await startTestServer({ demo: false, config: { loginRateLimit: 3 } });
    try {
      const client = new TestClient(limited.url);
      for (let i = 0; i < 3; i++) expect((await client.post('/api/auth/login', { username: 'admin', password: 'wrong-wrong' })).status).toBe(401);
      expectError(await client.post('/api/auth/login', { username: 'admin', password: 'wrong-wrong' }), 429, 'rate_limited');
    } finally {
      await limited.close();
    }
  });
});
