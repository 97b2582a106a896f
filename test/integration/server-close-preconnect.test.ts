import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { healthApi } from '../../shared/api/health';
import { TestClient } from '../support/http-client';
import { startTestServer } from '../support/test-server';

function openSocket(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    socket.once('error', reject);
  });
}

describe('closing the server beside a connection that asked nothing', () => {
  it('closes it (a browser preconnect), where Node would wait for it until the headers timeout', async () => {
    const server = await startTestServer({ demo: false });
    // A used keep-alive connection too: Node closes that one as idle.
    await new TestClient(server.url).call(healthApi.get);
    const preconnect = await openSocket(server.url);
    const ended = new Promise<void>((resolve) => preconnect.once('close', () => resolve()));
    // Without the closing of unused connections this waits ~60 s, past the test's timeout.
    await server.close();
    await ended;
    expect(preconnect.destroyed).toBe(true);
  });
});
