import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_TOUCH_MS } from '../../server/auth/sessions';
import { runCli } from '../support/cli';
import { setSessionTimes } from '../support/factories';
import { SignedInUsers } from '../support/signed-in-users';
import { socketClosed, TestSockets } from '../support/sockets';
import { startTestServer, type TestServer } from '../support/test-server';
import { authApi } from '../../shared/api/auth';
import { settingsApi } from '../../shared/api/settings';

let server: TestServer;
let users: SignedInUsers;
let sockets: TestSockets;
const ROOT = { username: 'root', password: 'admin-pass-123' };
/** The session sweep of this server: ends it does not make itself reach sockets within this. */
const SWEEP_MS = 200;
const SWEPT_WITHIN_MS = SWEEP_MS * 10;

beforeAll(async () => {
  server = await startTestServer({ demo: false, config: { sessionSweepMs: SWEEP_MS } });
  await server.createUser(ROOT.username, 'admin', ROOT.password);
  users = new SignedInUsers(server);
  sockets = new TestSockets(server.url);
});
afterAll(async () => {
  await server?.close();
});
afterEach(() => sockets.closeAll());

/** Moves a user's sessions' last use back, as if they had not been used for `minutes`. */
const idleFor = (userId: number, minutes: number) => setSessionTimes(server.server.ctx.db, userId, { lastSeenAt: new Date(Date.now() - minutes * 60_000) });
const lastSeen = (userId: number) =>
  (server.server.ctx.db.prepare('SELECT last_seen_at FROM sessions WHERE user_id = ?').get(userId) as { last_seen_at: string }).last_seen_at;

describe('idle sessions expire', () => {
  it('a session unused for longer than session_idle_minutes ends, for requests and sockets', async () => {
    const root = await users.create('admin');
    expect((await root.client.send(settingsApi.update, { body: { session_idle_minutes: 30 } })).status).toBe(200);
    const user = await users.create('reviewer');
    idleFor(user.id, 29);
    // Still live: the request marks it seen, so the next 30 minutes start now.
    expect((await user.client.send(authApi.me)).status).toBe(200);
    expect(Date.parse(lastSeen(user.id))).toBeGreaterThan(Date.now() - 5_000);

    const socket = await sockets.connect(user.client);
    idleFor(user.id, 31);
    expect(await socketClosed(socket, SWEPT_WITHIN_MS)).toBe('io server disconnect');
    expect((await user.client.send(authApi.me)).status).toBe(401);
    expect(await sockets.outcome(user.client)).toBe('unauthenticated');
  });

  it('marks a session seen at most once per SESSION_TOUCH_MS, not on every request', async () => {
    const user = await users.create('reviewer');
    const recent = new Date(Date.now() - SESSION_TOUCH_MS / 2);
    setSessionTimes(server.server.ctx.db, user.id, { lastSeenAt: recent });
    for (let i = 0; i < 3; i++) expect((await user.client.send(authApi.me)).status).toBe(200);
    expect(lastSeen(user.id)).toBe(recent.toISOString());
  });

  it('the absolute life still ends a busy session, and its socket', async () => {
    const user = await users.create('reviewer');
    const socket = await sockets.connect(user.client);
    setSessionTimes(server.server.ctx.db, user.id, { expiresAt: new Date(Date.now() - 1000) });
    expect(await socketClosed(socket, SWEPT_WITHIN_MS)).toBe('io server disconnect');
    expect((await user.client.send(authApi.me)).status).toBe(401);
  });
});

describe('ends made by another process', () => {
  it('`hqa user disable` closes the user’s socket within the session sweep; their requests fail at once', async () => {
    const user = await users.create('reviewer');
    const socket = await sockets.connect(user.client);
    // The CLI's start takes seconds; its commit comes just before it exits.
    const closed = socketClosed(socket, 60_000).then((reason) => ({ reason, at: Date.now() }));
    const cli = await runCli(['user', 'disable', user.username], { dbPath: server.dbPath });
    const exitedAt = Date.now();
    expect(cli).toMatchObject({ status: 0, stdout: `disabled "${user.username}"; ended 1 session\n` });
    expect((await user.client.send(authApi.me)).status).toBe(401);
    const { reason, at } = await closed;
    expect(reason).toBe('io server disconnect');
    expect(at - exitedAt).toBeLessThan(SWEPT_WITHIN_MS);
  }, 60_000);
});
