import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/http-client';
import { connectAs, nextEvent, recordEvents, type TestSocket } from '../support/socket-client';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Events published together go out together (one write per connection per batch, realtime.ts):
 * each socket must still get every one of them, in the order they were published.
 */
let server: TestServer;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  for (const name of ['ann', 'ben', 'cat']) {
    await server.createUser(name, 'reviewer', `${name}-pass-123`);
    const client = new TestClient(server.url);
    await client.login(name, `${name}-pass-123`);
    sockets.push(await connectAs(server.url, client));
  }
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server.close();
});

describe('socket events published in one turn of the event loop', () => {
  it('all reach every socket, in order, after a burst of hundreds', async () => {
    const { publish } = server.server.ctx;
    const seen = sockets.map((socket) => recordEvents(socket, 'item.released'));
    const last = sockets.map((socket) => nextEvent(socket, 'item.released', (payload) => (payload as { item_id: number }).item_id === 499));
    for (let id = 0; id < 500; id++) publish('item.released', { item_id: id });
    await Promise.all(last);
    const expected = Array.from({ length: 500 }, (_, id) => ({ item_id: id }));
    for (const events of seen) expect(events).toEqual(expected);
  });

  it('and one published later, alone, still arrives at once', async () => {
    const arrived = sockets.map((socket) => nextEvent(socket, 'item.released', (payload) => (payload as { item_id: number }).item_id === 1000, 2_000));
    server.server.ctx.publish('item.released', { item_id: 1000 });
    await Promise.all(arrived);
  });
});
