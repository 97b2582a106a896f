import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { healthApi } from '../../shared/api/health';
import { TestClient } from './http-client';
import { startTestServer, type TestServer } from './test-server';

const open: TestServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

async function start(): Promise<{ server: TestServer; port: number }> {
  const server = await startTestServer({ demo: false });
  open.push(server);
  return { server, port: Number(new URL(server.url).port) };
}

describe('test servers’ ports', () => {
  it('gives a closed server’s port to the next one, and two open servers two ports of this worker', async () => {
    const first = await start();
    const second = await start();
    expect(second.port).not.toBe(first.port);
    // Below Linux's ephemeral range (32768…): the worker's own ports, not any free one.
    expect(first.port).toBeLessThan(32_768);
    await first.server.close();
    open.splice(open.indexOf(first.server), 1);
    const third = await start();
    expect(third.port).toBe(first.port);
  });

  it('passes over a port another process holds', async () => {
    const first = await start();
    await first.server.close();
    open.splice(0);
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(first.port, '127.0.0.1', resolve));
    try {
      const next = await start();
      expect(next.port).not.toBe(first.port);
      expect((await new TestClient(next.server.url).call(healthApi.get)).status).toBe('ok');
    } finally {
      await new Promise<void>((resolve) => squatter.close(() => resolve()));
    }
  });
});
