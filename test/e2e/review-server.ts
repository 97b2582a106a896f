import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { RunConfigSchema } from '../../shared/api/runs';
import { startTestServer, type TestServer } from '../support/test-server';
import { SignedInBrowsers } from './signed-in-browsers';

type Role = 'reviewer' | 'curator' | 'admin';

export interface ReviewServer {
  /** The file's server (from its `beforeAll` on). */
  readonly server: TestServer;
  /** A new user of `role` named `<prefix><n>`, signed in in a browser of its own, on no page yet (each caller opens its page). */
  signIn(prefix: string, role?: Role): Promise<{ context: BrowserContext; page: Page; userId: number }>;
}

/**
 * What the review screen's test files share: one server per file with `items` offline items in
 * the queue, and users signed in each in a browser of their own, closed after each test.
 * Registers the file's hooks; call it at the top of the file.
 */
export function reviewServer(items: number): ReviewServer {
  const browsers = new SignedInBrowsers();
  let server: TestServer | null = null;
  let users = 0;
  beforeAll(async () => {
    server = await startTestServer();
    const { executor } = server.server;
    await executor.start(executor.createRun(RunConfigSchema.parse({ engine: 'offline', stage: 'items', items }), null).id);
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(() => browsers.closeAll());
  const started = (): TestServer => {
    if (!server) throw new Error('the review server starts in beforeAll: use it inside a test');
    return server;
  };
  return {
    get server() {
      return started();
    },
    async signIn(prefix, role = 'reviewer') {
      const running = started();
      users += 1;
      const username = `${prefix}${users}`;
      const password = `${prefix}-pass-${users}`;
      await running.createUser(username, role, password);
      const { id: userId } = running.server.ctx.db.prepare('SELECT id FROM users WHERE username = ?').get(username) as { id: number };
      const page = await browsers.signIn(running.url, { username, password }, null);
      return { context: page.context(), page, userId };
    },
  };
}
