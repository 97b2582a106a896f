import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server';
import { ForgingSite } from './pages/forging-site';
import { SignedInBrowsers } from './signed-in-browsers';

const ADMIN = { username: 'ada', password: 'admin-pass-123' };

let server: TestServer;
let forger: ForgingSite;
const browsers = new SignedInBrowsers();

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  await server.createUser(ADMIN.username, 'admin', ADMIN.password);
  forger = await ForgingSite.start(server.url);
});
afterAll(async () => {
  await forger?.close();
  await server?.close();
});
afterEach(() => browsers.closeAll());

const userExists = (username: string) => server.server.ctx.db.prepare('SELECT 1 FROM users WHERE username = ?').get(username) !== undefined;

describe('a page on another port of 127.0.0.1 (same site, another origin)', () => {
  it("cannot post forms to the workbench with its visitor's session: the session survives and no user is made", async () => {
    const page = await browsers.signIn(server.url, ADMIN);
    await forger.open(page);

    for (const form of ['text-plain-logout', 'urlencoded-logout', 'text-plain-create-user'] as const) {
      // The browser sends its Origin with a form post, so the origin check answers first.
      expect((await forger.submit(page, form)).status(), form).toBe(403);
    }
    expect(userExists('forged')).toBe(false);

    await page.goto(server.url);
    expect(await page.evaluate(async () => (await fetch('/api/auth/me')).status)).toBe(200);
  }, 150_000);

  it('cannot open a WebSocket to the workbench as its visitor', async () => {
    const page = await browsers.signIn(server.url, ADMIN);
    await forger.open(page);
    const attempt = await forger.openSocket(page, 3_000);
    expect(attempt).toEqual({ opened: false, messages: [] });
  });
});
