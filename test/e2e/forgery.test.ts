import type { Page } from 'playwright-core';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildChart, buildItem, buildQa } from '../support/factories';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';
import { ItemDiscussionPage } from './pages/item-discussion';
import { LoginPage } from './pages/login-page';
import { ForgingSite } from './pages/forging-site';
import { SignedInBrowsers } from './signed-in-browsers';

const ADMIN = { username: 'ada', password: 'admin-pass-123' };
const MALLORY = { username: 'mallory', password: 'mallory-pass-1' };

let server: TestServer;
let forger: ForgingSite;
let itemId: number;
const browsers = new SignedInBrowsers();
/** The server's request log (`GET /api/auth/me 200 3ms`): what it answered requests the forging page's browser refuses to show it. */
const requestLines: string[] = [];
const logger = pino({ level: 'info' }, { write: (line: string) => void requestLines.push((JSON.parse(line) as { msg: string }).msg) });
/** The status the server answered the first `GET path` after `load` with. */
async function answeredGet(path: string, load: () => Promise<unknown>): Promise<number> {
  const since = requestLines.length;
  await load();
  const line = () => requestLines.slice(since).find((l) => l.startsWith(`GET ${path} `));
  await expect.poll(() => line() !== undefined).toBe(true);
  return Number(line()?.slice(`GET ${path} `.length).split(' ')[0]);
}

beforeAll(async () => {
  server = await startTestServer({ demo: false, logger });
  await server.createUser(ADMIN.username, 'admin', ADMIN.password);
  await server.createUser(MALLORY.username, 'reviewer', MALLORY.password);
  const db = server.server.ctx.db;
  // Accepted, so an export would hold it (an empty one is refused before its audit entry).
  itemId = buildItem(db, { qaId: buildQa(db, { chartId: buildChart(db) }), status: 'accepted' });
  forger = await ForgingSite.start(server.url);
});
afterAll(async () => {
  await forger?.close();
  await server?.close();
});
afterEach(() => browsers.closeAll());

const userExists = (username: string) => server.server.ctx.db.prepare('SELECT 1 FROM users WHERE username = ?').get(username) !== undefined;
const exportAudits = () => (server.server.ctx.db.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'export.downloaded'").get() as { n: number }).n;
const commentAuthors = () =>
  (server.server.ctx.db.prepare('SELECT u.username FROM item_comments c JOIN users u ON u.id = c.author_id WHERE c.item_id = ? ORDER BY c.id').all(itemId) as { username: string }[]).map(
    (row) => row.username,
  );
/** The session cookies the browser holds for the workbench's host, with their paths. */
const sessionCookies = async (page: Page) =>
  (await page.context().cookies())
    .filter((cookie) => cookie.name === 'hqa_session')
    .map((cookie) => cookie.path)
    .sort();

describe('a page on another port of 127.0.0.1 (same site, another origin)', () => {
  it("cannot post forms to the workbench with its visitor's session: the session survives and no user is made", async () => {
    const page = await browsers.signIn(server.url, ADMIN, null);
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
    const page = await browsers.signIn(server.url, ADMIN, null);
    await forger.open(page);
    const attempt = await forger.openSocket(page, 3_000);
    expect(attempt).toEqual({ opened: false, messages: [] });
  });
});

describe('a page on another port of 127.0.0.1 reading with its visitor\'s cookie', () => {
  it('cannot start an audited export download with an <img> or a form; the Export page still can', async () => {
    const page = await browsers.signIn(server.url, ADMIN, null);
    await forger.open(page);
    // The visitor's session rides along with an image…
    expect(await answeredGet('/api/auth/me', () => forger.loadImage(page, '/api/auth/me'))).toBe(200);
    // …but downloads are POSTs: as a GET the path is no route at all.
    for (const path of ['/api/export?format=jsonl&name=forged', '/api/export/hf-dataset?name=forged']) {
      expect(await answeredGet(path, () => forger.loadImage(page, path)), path).toBe(404);
    }
    expect((await forger.submit(page, 'urlencoded-export')).status()).toBe(403);
    expect(exportAudits()).toBe(0);

    await page.goto(`${server.url}/evaluation`);
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-download').click()]);
    expect(file.suggestedFilename()).toBe('chart-hqa.json');
    expect(exportAudits()).toBe(1);
  }, 150_000);
});

describe('session cookies planted by a page on another port of 127.0.0.1', () => {
  it('junk on /api is cleared at the next request, which asks to sign in again, and signing in works for good', async () => {
    const page = await browsers.signIn(server.url, ADMIN, null);
    await forger.open(page);
    await forger.plantCookie(page, 'hqa_session=junk; path=/api');
    expect(await sessionCookies(page)).toEqual(['/', '/api']);

    await page.goto(`${server.url}/items`);
    const login = new LoginPage(page, server.url);
    await login.username.waitFor();
    expect(await page.getByTestId('signed-out-notice').textContent()).toMatch(/You were signed out: 2 session cookies were sent .*cleared: sign in again/);
    expect(await sessionCookies(page)).toEqual([]);
    await login.login(ADMIN.username, ADMIN.password);
    expect(await sessionCookies(page)).toEqual(['/']);
    await page.reload();
    await page.getByTestId('current-user').waitFor();
    expect(await page.evaluate(async () => (await fetch('/api/auth/me')).status)).toBe(200);
  }, 150_000);

  it("another user's live token on /api/items does not make the visitor's comment theirs", async () => {
    const mallory = new TestClient(server.url);
    await mallory.login(MALLORY.username, MALLORY.password);
    const page = await browsers.signIn(server.url, ADMIN, null);
    const item = await new ItemDiscussionPage(page, server.url).goto(itemId);

    // While the item is open, the visitor looks at the other page in a second tab, which plants the cookie.
    const elsewhere = await page.context().newPage();
    await forger.open(elsewhere);
    await forger.plantCookie(elsewhere, `${mallory.cookie}; path=/api/items`);
    await elsewhere.close();

    const field = item.thread.getByRole('textbox');
    await field.fill('is this right?');
    await field.press('Control+Enter');
    // The post carried both cookies: refused, both cleared, and the page asks to sign in again.
    const login = new LoginPage(page, server.url);
    await login.username.waitFor();
    await page.getByTestId('signed-out-notice').waitFor();
    expect(commentAuthors()).toEqual([]);
    expect(await sessionCookies(page)).toEqual([]);

    await login.login(ADMIN.username, ADMIN.password);
    await (await new ItemDiscussionPage(page, server.url).goto(itemId)).comment('is this right?');
    expect(commentAuthors()).toEqual([ADMIN.username]);
  }, 150_000);
});
