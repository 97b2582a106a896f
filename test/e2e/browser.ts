import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

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

/**
 * One Chromium with a fresh temporary profile: one browser session (its own cookies). Each
 * user in a test gets their own. `args` adds Chromium flags (e.g. --host-resolver-rules).
 */
export async function openBrowser(options: { args?: string[] } = {}): Promise<BrowserSession> {
  const profile = mkdtempSync(join(tmpdir(), 'hqa-e2e-profile-'));
  // playwright refuses `--user-data-dir` in args; a persistent context passes it for us.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
    viewport: { width: 1366, height: 860 },
  });
  context.setDefaultTimeout(UI_TIMEOUT_MS);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
