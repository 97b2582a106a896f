import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser } from './browser';

/** Two origins (ports) serving one empty page each: storage is kept per origin. */
let servers: Server[] = [];
let urls: string[] = [];

beforeAll(async () => {
  servers = [createServer((_, res) => res.end('<!doctype html><title>pool</title>')), createServer((_, res) => res.end('<!doctype html><title>other</title>'))];
  urls = await Promise.all(servers.map((server) => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)))));
});
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

/** What one test could leave behind for the next in its session. */
async function leaveTraces(url: string) {
  const session = await openBrowser();
  await session.page.goto(`${url}/first`);
  await session.context.addCookies([{ name: 'sid', value: 'secret', url }]);
  await session.page.evaluate(() => {
    localStorage.setItem('draft', 'typed');
    sessionStorage.setItem('tab', 'mine');
  });
  await session.page.goto(`${url}/second`);
  await session.page.setViewportSize({ width: 390, height: 844 });
  return session;
}

describe('a closed e2e browser session is reused only as a fresh one', () => {
  it('is put back with no cookies, storage, history, listeners or viewport of the test before', async () => {
    const first = await leaveTraces(urls[0]!);
    let heard = 0;
    first.page.on('console', () => (heard += 1));
    const { page: firstPage } = first;
    await first.close();

    const second = await openBrowser();
    try {
      // The same page, cleared (the point of the pool; without it this test proves nothing).
      expect(second.page).toBe(firstPage);
      expect(second.page.url()).toBe('about:blank');
      expect(await second.context.cookies()).toEqual([]);
      expect(second.page.viewportSize()).toEqual({ width: 1366, height: 860 });
      await second.page.goto(`${urls[0]!}/third`);
      expect(await second.page.evaluate(() => [localStorage.getItem('draft'), sessionStorage.getItem('tab'), history.length])).toEqual([null, null, 2]);
      await second.page.evaluate(() => console.log('to no one'));
      expect(heard).toBe(0);
    } finally {
      await second.close();
    }
  });

  it('is closed, not reused, after an init script, a second page or a second origin', async () => {
    const taints: ((session: Awaited<ReturnType<typeof openBrowser>>) => Promise<unknown>)[] = [
      (session) => session.page.addInitScript(() => undefined),
      (session) => session.context.newPage(),
      (session) => session.page.goto(`${urls[1]!}/elsewhere`),
    ];
    for (const taint of taints) {
      const session = await openBrowser();
      await session.page.goto(`${urls[0]!}/start`);
      await taint(session);
      const { page } = session;
      await session.close();
      expect(page.isClosed()).toBe(true);
      const next = await openBrowser();
      expect(next.page).not.toBe(page);
      await next.close();
    }
  });
});
