import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** The system Chromium (installed by apt in CI). */
export const CHROMIUM_PATH = process.env.HQA_CHROMIUM ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** How long one UI expectation may wait: the server renders chart images on demand. */
export const UI_TIMEOUT_MS = 10_000;

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

let shared: Promise<Browser> | null = null;

/**
 * One Chromium per test process, launched at first use: starting one took about 3 s on this
 * machine, and a test that signs in three users paid it three times (the reflection test ran
 * 20 s of its 30). A browser that went away (crashed) is launched again at the next use.
 */
function sharedBrowser(): Promise<Browser> {
  if (shared === null) {
    const launching = launch([]);
    shared = launching;
    void launching.then(
      (browser) => browser.on('disconnected', () => (shared = shared === launching ? null : shared)),
      () => (shared = null),
    );
  }
  return shared;
}

function launch(args: string[]): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS, ...args] });
}

/**
 * One browser session with its own cookies and storage (a fresh context of the test process's
 * Chromium): each user in a test gets their own. `args` adds Chromium flags (e.g.
 * --host-resolver-rules): flags are the browser's, so such a session gets a Chromium of its own.
 */
export async function openBrowser(options: { args?: string[] } = {}): Promise<BrowserSession> {
  const own = options.args !== undefined && options.args.length > 0 ? await launch(options.args) : null;
  const browser = own ?? (await sharedBrowser());
  const context = await browser.newContext({ viewport: { width: 1366, height: 860 } });
  context.setDefaultTimeout(UI_TIMEOUT_MS);
  const page = await context.newPage();
  return {
    context,
    page,
    async close() {
      await context.close();
      await own?.close();
    },
  };
}
