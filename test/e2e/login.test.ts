import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server';
import { openBrowser, type BrowserSession } from './browser';
import { AppFrame } from './pages/app-frame';
import { LoginPage } from './pages/login-page';
import { authApi } from '../../shared/api/auth';
import { pageSend } from './page-call';

const USER = { username: 'rita', password: 'reviewer-pass-1' };
/** Failed logins allowed before the server answers 429 (a low limit to reach it quickly). */
const LOGIN_LIMIT = 3;

let server: TestServer;
let session: BrowserSession | undefined;

beforeAll(async () => {
  server = await startTestServer({ config: { loginRateLimit: LOGIN_LIMIT } });
  await server.createUser(USER.username, 'reviewer', USER.password);
});

afterAll(async () => {
  await server?.close();
});

afterEach(async () => {
  await session?.close();
  session = undefined;
});

describe('login in the browser', () => {
  it('a reviewer logs in, sees the navigation without Admin, and logs out', async () => {
    const browser = await openBrowser();
    session = browser;
    const login = await new LoginPage(browser.page, server.url).goto();
    await login.login(USER.username, USER.password);
    const frame = new AppFrame(session.page);

    expect(await frame.currentUser.textContent()).toContain(USER.username);
    expect(await frame.navLabels()).toEqual(['Review', 'Items', 'Pool', 'Runs', 'Charts', 'Stats', 'Evaluation']);

    await frame.navigate('Review');
    await expect.poll(() => browser.page.getByText(/Nothing to review|Claiming the next item/).count()).toBeGreaterThan(0);

    await frame.logout();
    expect((await pageSend(session.page, authApi.me)).status).toBe(401);
  });

  it('says so when the password is wrong, then when the attempts are rate-limited', async () => {
    session = await openBrowser();
    const login = await new LoginPage(session.page, server.url).goto();
    for (let attempt = 1; attempt <= LOGIN_LIMIT; attempt += 1) {
      await login.submitCredentials(USER.username, `wrong-password-${attempt}`);
      await expect.poll(() => login.error.textContent()).toBe('Wrong username or password.');
      await login.submit.isEnabled();
    }
    await login.submitCredentials(USER.username, 'wrong-password-again');
    await expect.poll(() => login.error.textContent()).toMatch(/^Too many login attempts\./);
  });
});
