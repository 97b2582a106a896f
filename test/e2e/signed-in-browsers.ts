import type { Page } from 'playwright-core';
import { openBrowser, type BrowserSession } from './browser';
import { LoginPage } from './pages/login-page';

export type Credentials = { username: string; password: string };

/** Set to a directory to save screenshots of the pages at work (e.g. /tmp) for a human look. */
const SCREENSHOT_DIR = process.env.HQA_E2E_SCREENSHOT_DIR;

/**
 * The browsers a test file signs its users in with, each its own session (its own cookies).
 * Call `closeAll` in `afterEach`.
 */
export class SignedInBrowsers {
  private readonly sessions: BrowserSession[] = [];

  /** A fresh browser with `user` logged in at `baseUrl`, once the signed-in frame shows. */
  async signIn(baseUrl: string, user: Credentials): Promise<Page> {
    const session = await openBrowser();
    this.sessions.push(session);
    await new LoginPage(session.page, baseUrl).goto().then((login) => login.login(user.username, user.password));
    return session.page;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.sessions.splice(0).map((s) => s.close()));
  }
}

/** Saves a full-page screenshot as `<name>.png` in HQA_E2E_SCREENSHOT_DIR; nothing when it is not set. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (SCREENSHOT_DIR) await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}.png`, fullPage: true });
}
