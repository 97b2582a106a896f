import type { Page } from 'playwright-core';
import { TestClient } from '../support/http-client';
import { openBrowser, type BrowserSession } from './browser';

export type Credentials = { username: string; password: string };

/** Set to a directory to save screenshots of the pages at work (e.g. /tmp) for a human look. */
const SCREENSHOT_DIR = process.env.HQA_E2E_SCREENSHOT_DIR;

/**
 * The browsers a test file signs its users in with, each its own session (its own cookies).
 * Call `closeAll` in `afterEach`.
 */
export class SignedInBrowsers {
  private readonly sessions: BrowserSession[] = [];

  /**
   * A fresh browser with `user` logged in at `baseUrl`, on `path` (the landing route, which
   * sends each role where it works, unless given) once the signed-in frame shows; with `path`
   * null, on no page yet: for a caller whose next step opens one (a page object's `goto`).
   */
  async signIn(baseUrl: string, user: Credentials, path: string | null = '/'): Promise<Page> {
    const session = await openBrowser();
    this.sessions.push(session);
    await signInSession(session, baseUrl, user, path);
    return session.page;
  }

  /** A fresh browser with no one signed in, on no page yet. */
  async open(): Promise<Page> {
    const session = await openBrowser();
    this.sessions.push(session);
    return session.page;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.sessions.splice(0).map((s) => s.close()));
  }
}

/**
 * Logs `user` in over HTTP (the login endpoint the form posts to) and gives `session` the
 * session cookie the server set, then opens `path` (unless null) and waits for the signed-in
 * frame. The login form has tests of its own (login.test.ts); loading it and typing into it
 * for every other test cost a page load each, and a second one to leave the landing page.
 */
export async function signInSession(session: BrowserSession, baseUrl: string, user: Credentials, path: string | null = '/'): Promise<void> {
  const client = new TestClient(baseUrl);
  await client.login(user.username, user.password);
  const at = client.cookie.indexOf('=');
  if (at <= 0) throw new Error(`login ${user.username} set no session cookie`);
  // As the server sets it (auth-routes.ts): on /, httpOnly, SameSite=Strict.
  await session.context.addCookies([
    { name: client.cookie.slice(0, at), value: client.cookie.slice(at + 1), url: `${baseUrl}/`, httpOnly: true, sameSite: 'Strict' },
  ]);
  if (path === null) return;
  await session.page.goto(`${baseUrl}${path}`);
  await session.page.getByTestId('current-user').waitFor();
}

/** Saves a full-page screenshot as `<name>.png` in HQA_E2E_SCREENSHOT_DIR; nothing when it is not set. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (SCREENSHOT_DIR) await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}.png`, fullPage: true });
}
