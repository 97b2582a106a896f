import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { startTestServer, type TestServer } from '../support/test-server';
import { openBrowser, type BrowserSession } from './browser';
import { AppFrame } from './pages/app-frame';
import { ChartPage } from './pages/chart-page';
import { LoginPage } from './pages/login-page';

const ADMIN = { username: 'ada', password: 'admin-pass-123' };
/**
 * A LAN host name: not loopback, so Chromium treats the page as any plain-HTTP site (it
 * exempts only localhost and 127.0.0.1 from upgrade-insecure-requests). The resolver rule
 * sends it to the test server on 127.0.0.1, so nothing listens beyond this machine.
 */
const LAN_HOST = 'hqa.lan';
const MAIN_PAGES = ['Review', 'Items', 'Pool', 'Runs', 'Charts', 'Stats', 'Evaluation', 'Admin', 'Audit log'];

interface Violation {
  page: string;
  directive: string;
  blocked: string;
  source: string;
}

let server: TestServer;
let session: BrowserSession | undefined;

beforeAll(async () => {
  // Browsers reach it by a name of no interface of this machine: on its allow-list, as an operator would put it.
  server = await startTestServer({ config: { allowedHosts: loadConfig({ HQA_ALLOWED_HOSTS: LAN_HOST }).allowedHosts } });
  await server.createUser(ADMIN.username, 'admin', ADMIN.password);
});
afterAll(async () => {
  await server?.close();
});
afterEach(async () => {
  await session?.close();
  session = undefined;
});

describe('plain HTTP under a LAN host name', () => {
  it('renders every main page, with a live socket, and reports no CSP violation', async () => {
    session = await openBrowser({ args: [`--host-resolver-rules=MAP ${LAN_HOST} 127.0.0.1`] });
    const { context, page } = session;
    const violations: Violation[] = [];
    await context.exposeBinding('reportViolation', ({ page: from }, violation: Omit<Violation, 'page'>) => {
      violations.push({ page: from.url(), ...violation });
    });
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        const report = (window as unknown as { reportViolation: (v: object) => void }).reportViolation;
        report({ directive: event.effectiveDirective, blocked: event.blockedURI, source: `${event.sourceFile}:${event.lineNumber}:${event.columnNumber}` });
      });
    });
    const baseUrl = server.url.replace('127.0.0.1', LAN_HOST);
    expect(new URL(baseUrl).hostname).toBe(LAN_HOST);

    // Logging in is a rendered form and a write from this origin: both work.
    await new LoginPage(page, baseUrl).goto().then((login) => login.login(ADMIN.username, ADMIN.password));
    const frame = new AppFrame(page);
    await expect.poll(() => page.getByTestId('presence').textContent()).toMatch(/\d+ online/);

    for (const label of MAIN_PAGES) await frame.navigate(label);
    await page.goto(`${baseUrl}/charts/1`);
    await new ChartPage(page).waitForLoad();

    expect(violations).toEqual([]);
  });
});
