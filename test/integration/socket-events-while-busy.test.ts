import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/http-client';
import { connectAs, nextEvent, recordEvents, type TestSocket } from '../support/socket-client';
import { startTestServer, type TestServer } from '../support/test-server';
import { authApi } from '../../shared/api/auth';

/**
 * While HTTP requests are in flight, a batch of events waits for them (realtime.ts), but never
 * for long: a request that does not end (a client that stops sending its body) holds nothing.
 */
let server: TestServer;
let socket: TestSocket;
let client: TestClient;

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  await server.createUser('ann', 'reviewer', 'ann-pass-123');
  client = new TestClient(server.url);
  await client.login('ann', 'ann-pass-123');
  socket = await connectAs(server.url, client);
});
afterAll(async () => {
  socket.close();
  await server.close();
});

/** A write whose body never arrives: in flight until it is destroyed. */
function hangingRequest(): { destroy: () => void } {
  const req = request(`${server.url}/api/review/next`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': '1000', origin: server.url, cookie: client.cookie },
  });
  req.on('error', () => undefined);
  req.write('{');
  return { destroy: () => req.destroy() };
}

describe('events published while requests are in flight', () => {
  it('still arrive, in order, while a request never ends', async () => {
    const hanging = hangingRequest();
    try {
      // Let the server see the request before publishing.
      await client.send(authApi.me);
      const seen = recordEvents(socket, 'item.released');
      const last = nextEvent(socket, 'item.released', (payload) => (payload as { item_id: number }).item_id === 9, 2_000);
      for (let id = 0; id < 10; id++) server.server.ctx.publish('item.released', { item_id: id });
      await last;
      expect(seen).toEqual(Array.from({ length: 10 }, (_, id) => ({ item_id: id })));
    } finally {
      hanging.destroy();
    }
  });

});
