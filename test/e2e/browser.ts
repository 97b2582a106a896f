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

const VIEWPORT = { width: 1366, height: 860 };

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
      (browser) =>
        browser.on('disconnected', () => {
          shared = shared === launching ? null : shared;
          idle.length = 0;
        }),
      () => (shared = null),
    );
  }
  return shared;
}

function launch(args: string[]): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS, ...args] });
}

/**
 * Calls after which a page or context cannot be put back as it was (an init script, an exposed
 * binding, a route on the context, a clock…): a session that made one is closed, not reused.
 */
const PAGE_TAINTS = ['addInitScript', 'exposeFunction', 'exposeBinding', 'routeFromHAR', 'routeWebSocket', 'setExtraHTTPHeaders', 'emulateMedia'] as const;
const CONTEXT_TAINTS = [
  'addInitScript',
  'exposeFunction',
  'exposeBinding',
  'route',
  'routeFromHAR',
  'routeWebSocket',
  'setExtraHTTPHeaders',
  'setOffline',
  'grantPermissions',
  'setGeolocation',
  'setHTTPCredentials',
] as const;

/** One context and its page, kept between tests; what a test changed is undone or the session is not reused. */
interface PooledSession {
  context: BrowserContext;
  page: Page;
  /** The origins the page's documents came from since the session was last put back. */
  origins: Set<string>;
  /** A call of PAGE_TAINTS or CONTEXT_TAINTS, another page opened, or the page crashed. */
  tainted: boolean;
}

/** Sessions put back by closed tests, ready for the next. */
const idle: PooledSession[] = [];
/** More than this many put back at once are closed: no test here holds more browsers. */
const MAX_IDLE = 6;

/**
 * Makes `target`'s listed methods mark `session` tainted when called. Instance properties shadow
 * the class's methods, so only this session's objects are affected.
 */
function watchTaints(session: PooledSession, target: object, names: readonly string[]): void {
  const record = target as Record<string, unknown>;
  for (const name of names) {
    const original = record[name];
    if (typeof original !== 'function') continue;
    record[name] = (...args: unknown[]) => {
      session.tainted = true;
      return (original as (...a: unknown[]) => unknown).apply(target, args);
    };
  }
}

async function newPooledSession(browser: Browser): Promise<PooledSession> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  context.setDefaultTimeout(UI_TIMEOUT_MS);
  const page = await context.newPage();
  const session: PooledSession = { context, page, origins: new Set(), tainted: false };
  watchTaints(session, page, PAGE_TAINTS);
  watchTaints(session, context, CONTEXT_TAINTS);
  // The clock is the context's (page.clock is the same object): any use of it stays.
  watchTaints(session, context.clock, Object.getOwnPropertyNames(Object.getPrototypeOf(context.clock)).filter((name) => name !== 'constructor'));
  context.on('page', (other) => {
    if (other !== page) session.tainted = true;
  });
  context.on('request', (request) => {
    // A service worker's request has no frame (frame() throws): it is never the page's document.
    if (request.isNavigationRequest() && request.serviceWorker() === null && request.frame() === page.mainFrame()) session.origins.add(new URL(request.url()).origin);
  });
  watchCrash(session);
  return session;
}

function watchCrash(session: PooledSession): void {
  session.page.on('crash', () => (session.tainted = true));
}

/** `promise`, or an error once `ms` pass: a page stuck in a dialog or a loop never answers. */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * Puts `session` back as a fresh context's page is — no cookies, no storage, no history, on
 * about:blank, the default viewport, no routes or listeners — and true; false when it cannot be
 * (then the caller closes it). Only a page that stayed on one origin is kept: its local and
 * session storage are cleared there.
 */
async function putBack(session: PooledSession): Promise<boolean> {
  const { context, page } = session;
  if (session.tainted || page.isClosed() || context.pages().length !== 1 || session.origins.size > 1) return false;
  // First, so that a dialog a test's listener left open is dismissed by Playwright again.
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  page.removeAllListeners();
  watchCrash(session);
  const [origin] = [...session.origins];
  if (origin !== undefined) {
    if (!page.url().startsWith(origin)) return false;
    await within(5_000, 'clearing the storage', page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    }));
  }
  await context.clearCookies();
  await context.clearPermissions();
  await page.goto('about:blank');
  const cdp = await context.newCDPSession(page);
  try {
    await cdp.send('Page.resetNavigationHistory');
  } finally {
    await cdp.detach();
  }
  const viewport = page.viewportSize();
  if (viewport?.width !== VIEWPORT.width || viewport.height !== VIEWPORT.height) await page.setViewportSize(VIEWPORT);
  await page.mouse.move(0, 0);
  session.origins.clear();
  // A test may have closed it meanwhile, or it crashed while being put back.
  return !session.tainted && !page.isClosed();
}

async function release(session: PooledSession): Promise<void> {
  let kept = false;
  try {
    kept = idle.length < MAX_IDLE && (await putBack(session));
  } catch {
    kept = false;
  }
  if (kept) idle.push(session);
  else await session.context.close().catch(() => undefined);
}

/**
 * One browser session with its own cookies and storage: each user in a test gets their own.
 * It is a context of the test process's Chromium, and once closed it is put back (cleared) for
 * the next session: a fresh context and page cost ~2.5 s of CPU on this machine against ~0.6 s
 * for a cleared one, whose renderer has the client's code compiled — most of the e2e suite's
 * time. `args` adds Chromium flags (e.g. --host-resolver-rules): flags are the browser's, so such
 * a session gets a Chromium of its own, closed with it.
 */
export async function openBrowser(options: { args?: string[] } = {}): Promise<BrowserSession> {
  if (options.args !== undefined && options.args.length > 0) {
    const own = await launch(options.args);
    const context = await own.newContext({ viewport: VIEWPORT });
    context.setDefaultTimeout(UI_TIMEOUT_MS);
    const page = await context.newPage();
    return { context, page, close: () => own.close() };
  }
  const browser = await sharedBrowser();
  let session = idle.pop();
  while (session !== undefined && (session.context.browser() !== browser || !browser.isConnected())) session = idle.pop();
  session ??= await newPooledSession(browser);
  const taken = session;
  let closed = false;
  return {
    context: taken.context,
    page: taken.page,
    async close() {
      if (closed) return;
      closed = true;
      await release(taken);
    },
  };
}
