import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DisableUserResponseSchema,
  RevokeSessionsResponseSchema,
  usersApi,
} from '../../shared/api/users';
import { ErrorBodySchema } from '../../shared/errors';
import type { Role } from '../../shared/domain/roles';
import { runCli } from '../support/cli';
import { TestClient } from '../support/http-client';
import { signedIn, SignedInUsers } from '../support/signed-in-users';
import { socketClosed, TestSockets } from '../support/sockets';
import { startTestServer, type TestServer } from '../support/test-server';
import { analyticsApi } from '../../shared/api/analytics';
import { authApi } from '../../shared/api/auth';

let server: TestServer;
let users: SignedInUsers;
let sockets: TestSockets;
const ROOT = { username: 'root', password: 'admin-pass-123' };

beforeAll(async () => {
  // No sweep during these tests: each close they see is the one the action made at once.
  server = await startTestServer({ demo: false, config: { sessionSweepMs: 3_600_000 } });
  await server.createUser(ROOT.username, 'admin', ROOT.password);
  users = new SignedInUsers(server);
  sockets = new TestSockets(server.url);
});
afterAll(async () => {
  await server?.close();
});
afterEach(() => sockets.closeAll());

const signedInAs = (username: string, password: string) => signedIn(server, username, password);
const root = () => signedInAs(ROOT.username, ROOT.password);

/** What the server holds for the open sockets of a user: their role as each socket knows it. */
async function serverSocketRoles(userId: number): Promise<Role[]> {
  const open = await server.server.realtime.io.fetchSockets();
  return open.filter((s) => s.data.user.id === userId).map((s) => s.data.user.role);
}

/** How long "at once" may take on a loaded machine; the sweep, which could also close a socket, is off. */
const AT_ONCE_MS = 2_000;

describe('sockets close when the session or role they were opened with ends', () => {
  it('logout closes that session’s socket at once; the same user’s other browser stays connected', async () => {
    const user = await users.create('reviewer');
    const otherBrowser = await signedInAs(user.username, user.password);
    const socket = await sockets.connect(user.client);
    const other = await sockets.connect(otherBrowser);
    const closed = socketClosed(socket, AT_ONCE_MS);
    expect((await user.client.send(authApi.logout)).status).toBe(200);
    expect(await closed).toBe('io server disconnect');
    expect(other.connected).toBe(true);
  });

  it('disabling a user closes their sockets at once, refuses their requests and new sockets, and their login', async () => {
    const admin = await root();
    const user = await users.create('curator');
    const socket = await sockets.connect(user.client);
    const closed = socketClosed(socket, AT_ONCE_MS);
    const res = await admin.send(usersApi.disable, { params: { id: user.id } });
    expect(res.status).toBe(200);
    expect(DisableUserResponseSchema.parse(res.body)).toMatchObject({ revoked_sessions: 1, user: { username: user.username } });
    expect(await closed).toBe('io server disconnect');
    expect((await user.client.send(authApi.me)).status).toBe(401);
    expect(await sockets.outcome(user.client)).toBe('unauthenticated');
    const login = await new TestClient(server.url).send(authApi.login, { body: { username: user.username, password: user.password } });
    expect(login.status).toBe(401);

    const listed = (await admin.call(usersApi.list)).users.find((u) => u.id === user.id);
    expect(listed?.disabled_at).toBeTruthy();
    expect(listed?.active_sessions).toBe(0);

    // Enabled again: they log in anew; the sessions that ended with the disable stay ended.
    expect((await admin.send(usersApi.enable, { params: { id: user.id } })).status).toBe(200);
    expect((await user.client.send(authApi.me)).status).toBe(401);
    await signedInAs(user.username, user.password);
  });

  it('a curator demoted to reviewer is disconnected, and acts as a reviewer on the next socket and request', async () => {
    const admin = await root();
    const user = await users.create('curator');
    expect((await user.client.send(analyticsApi.coverage)).status).toBe(200);
    const socket = await sockets.connect(user.client);
    expect(await serverSocketRoles(user.id)).toEqual(['curator']);
    const closed = socketClosed(socket, AT_ONCE_MS);
    expect((await admin.send(usersApi.update, { params: { id: user.id }, body: { role: 'reviewer' } })).status).toBe(200);
    expect(await closed).toBe('io server disconnect');

    // The session lives on (the role is read anew on each request and socket).
    expect(await sockets.outcome(user.client)).toBe('connected');
    expect(await serverSocketRoles(user.id)).toEqual(['reviewer']);
    const forbidden = await user.client.send(analyticsApi.coverage);
    expect(forbidden.status).toBe(403);
    expect(ErrorBodySchema.parse(forbidden.body).error.code).toBe('forbidden');
  });

  it('revoking a user’s sessions ends every one of them with its sockets; they may log in again', async () => {
    const admin = await root();
    const user = await users.create('reviewer');
    const second = await signedInAs(user.username, user.password);
    const closed = [await sockets.connect(user.client), await sockets.connect(second)].map((s) => socketClosed(s, AT_ONCE_MS));
    const res = await admin.send(usersApi.revokeSessions, { params: { id: user.id } });
    expect(RevokeSessionsResponseSchema.parse(res.body).revoked_sessions).toBe(2);
    expect(await Promise.all(closed)).toEqual(['io server disconnect', 'io server disconnect']);
    expect((await user.client.send(authApi.me)).status).toBe(401);
    expect((await second.send(authApi.me)).status).toBe(401);
    await signedInAs(user.username, user.password);
  });

  it('a password reset returns a new password once, ends the sessions, and only the new password logs in', async () => {
    const admin = await root();
    const user = await users.create('reviewer');
    const closed = socketClosed(await sockets.connect(user.client), AT_ONCE_MS);
    const reset = await admin.call(usersApi.resetPassword, { params: { id: user.id } });
    expect(reset.revoked_sessions).toBe(1);
    expect(await closed).toBe('io server disconnect');
    expect((await user.client.send(authApi.me)).status).toBe(401);
    const old = await new TestClient(server.url).send(authApi.login, { body: { username: user.username, password: user.password } });
    expect(old.status).toBe(401);
    await signedInAs(user.username, reset.generated_password);
    // Shown once: the list never carries a password.
    expect(JSON.stringify((await admin.send(usersApi.list)).body)).not.toContain(reset.generated_password);
  });
});

describe('account actions', () => {
  it('refuse to disable or demote the last enabled admin, naming why', async () => {
    const admin = await root();
    const admins = (await admin.call(usersApi.list)).users.filter(
      (u) => u.role === 'admin' && u.disabled_at === null,
    );
    // The first start's `admin` and root: disabling one leaves root as the last.
    const firstStart = admins.find((u) => u.username !== ROOT.username);
    expect(firstStart).toBeDefined();
    expect((await admin.send(usersApi.disable, { params: { id: firstStart?.id } })).status).toBe(200);
    const rootId = admins.find((u) => u.username === ROOT.username)?.id;

    const disable = await admin.send(usersApi.disable, { params: { id: rootId } });
    expect(disable.status).toBe(409);
    expect(ErrorBodySchema.parse(disable.body).error.message).toBe(
      'cannot disable "root": they are the last enabled admin; make another user admin first',
    );
    const demote = await admin.send(usersApi.update, { params: { id: rootId }, body: { role: 'curator' } });
    expect(demote.status).toBe(409);
    expect(ErrorBodySchema.parse(demote.body).error).toMatchObject({ field: 'role', message: expect.stringMatching(/last enabled admin/) });
    expect((await admin.send(authApi.me)).status).toBe(200);

    // The CLI holds to the same rule.
    const cli = await runCli(['user', 'disable', ROOT.username], { dbPath: server.dbPath });
    expect(cli.status).toBe(1);
    expect(cli.stderr).toBe('hqa: cannot disable "root": they are the last enabled admin; make another user admin first\n');
    expect((await admin.send(usersApi.enable, { params: { id: firstStart?.id } })).status).toBe(200);
  }, 30_000);

  it('are the admin’s only', async () => {
    const curator = await users.create('curator');
    const target = await users.create('reviewer');
    for (const action of [usersApi.disable, usersApi.enable, usersApi.resetPassword, usersApi.revokeSessions]) {
      expect((await curator.client.send(action, { params: { id: target.id } })).status).toBe(403);
      expect((await target.client.send(action, { params: { id: target.id } })).status).toBe(403);
      expect((await new TestClient(server.url).send(action, { params: { id: target.id } })).status).toBe(401);
    }
    expect((await target.client.send(authApi.me)).status).toBe(200);
  });

  it('name a missing user', async () => {
    const admin = await root();
    const res = await admin.send(usersApi.disable, { params: { id: 9999 } });
    expect(res.status).toBe(404);
    expect(ErrorBodySchema.parse(res.body).error.message).toBe('user 9999 not found');
  });
});
