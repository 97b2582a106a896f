import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/http-client';
import type { Socket } from 'socket.io-client';
import { connectAs, nextEvent, onRaw, recordEvents, type TestSocket } from '../support/socket-client';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Events published together go out together (one frame per connection per batch, realtime.ts):
 * each socket must still get every one of its events, its audience's version, in the order
 * they were published.
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

/** Cora, a curator (made on first use), signed in. */
async function signedInCurator(): Promise<TestClient> {
  if (!server.server.ctx.db.prepare("SELECT 1 FROM users WHERE username = 'cora'").get()) await server.createUser('cora', 'curator', 'cora-pass-123');
  const curator = new TestClient(server.url);
  await curator.login('cora', 'cora-pass-123');
  return curator;
}

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

  it('as one frame per socket, not one per event', async () => {
    const { publish } = server.server.ctx;
    const frames = sockets.map((socket) => {
      const counted = { n: 0 };
      const raw = socket as unknown as Socket;
      raw.onAny(() => void counted.n++);
      return counted;
    });
    const last = sockets.map((socket) => nextEvent(socket, 'item.released', (payload) => (payload as { item_id: number }).item_id === 2099));
    for (let id = 2000; id < 2100; id++) publish('item.released', { item_id: id });
    await Promise.all(last);
    // All 100 were published in one turn: one batch, so one frame each (two at most, should a window end between).
    for (const counted of frames) expect(counted.n).toBeLessThanOrEqual(2);
  });

  it("with each audience's version and one user's own events in their places", async () => {
    const { publish, publishTo } = server.server.ctx;
    const staff = await connectAs(server.url, await signedInCurator());
    try {
      const ann = sockets[0];
      const ben = sockets[1];
      if (!ann || !ben) throw new Error('sockets missing');
      const annId = (server.server.ctx.db.prepare("SELECT id FROM users WHERE username = 'ann'").get() as { id: number }).id;
      const order = (socket: TestSocket) => {
        const seen: string[] = [];
        onRaw(socket, 'item.claimed', (p) => seen.push(`claimed ${JSON.stringify(p)}`));
        onRaw(socket, 'lease.expired', (p) => seen.push(`expired ${JSON.stringify(p)}`));
        onRaw(socket, 'item.released', (p) => seen.push(`released ${JSON.stringify(p)}`));
        return seen;
      };
      const [annSeen, benSeen, staffSeen] = [order(ann), order(ben), order(staff)];
      // Every socket, cat's too: an event still on its way to one would land in the next test's record.
      const done = [...sockets, staff].map((socket) => nextEvent(socket, 'item.released', (p) => (p as { item_id: number }).item_id === 3));
      publish('item.claimed', { item_id: 1, reviewer_id: annId });
      publishTo(annId, 'lease.expired', { item_id: 2 });
      publish('item.released', { item_id: 3 });
      await Promise.all(done);
      expect(annSeen).toEqual(['claimed {"item_id":1}', 'expired {"item_id":2}', 'released {"item_id":3}']);
      expect(benSeen).toEqual(['claimed {"item_id":1}', 'released {"item_id":3}']);
      expect(staffSeen).toEqual([`claimed {"item_id":1,"reviewer_id":${annId}}`, 'released {"item_id":3}']);
    } finally {
      staff.close();
    }
  });

  it('of a whole state (the queue counts), only the latest of a batch: its figures to staff, none to reviewers', async () => {
    const { publish } = server.server.ctx;
    const staff = await connectAs(server.url, await signedInCurator());
    try {
      const counts = (pending: number) => ({ pending, in_review: 0, needs_adjudication: 0, accepted: 0, rejected: 0 });
      const seen = [...sockets, staff].map((socket) => {
        const order: string[] = [];
        onRaw(socket, 'queue.changed', (p) => order.push(`queue ${JSON.stringify((p as { counts: { pending?: number } }).counts.pending ?? null)}`));
        onRaw(socket, 'item.released', (p) => order.push(`released ${(p as { item_id: number }).item_id}`));
        return order;
      });
      const done = [...sockets, staff].map((socket) => nextEvent(socket, 'item.released', (p) => (p as { item_id: number }).item_id === 4002));
      publish('queue.changed', { counts: counts(1) });
      publish('item.released', { item_id: 4001 });
      publish('queue.changed', { counts: counts(2) });
      publish('queue.changed', { counts: counts(3) });
      publish('item.released', { item_id: 4002 });
      await Promise.all(done);
      // (Listeners of different events each read a batch in turn, so only each event's own order shows.)
      const staffSeen = seen.pop();
      expect([...(staffSeen ?? [])].sort()).toEqual(['queue 3', 'released 4001', 'released 4002']);
      // Per-status figures are the staff's (blind review): reviewers are told the queue moved, with none.
      for (const order of seen) expect([...order].sort()).toEqual(['queue null', 'released 4001', 'released 4002']);
    } finally {
      staff.close();
    }
  });

  it('sealed from some reviewers: they get the sealed version (or nothing), staff and other reviewers the event', async () => {
    const { publish } = server.server.ctx;
    const staff = await connectAs(server.url, await signedInCurator());
    try {
      const [ann, ben, cat] = sockets as [TestSocket, TestSocket, TestSocket];
      const id = (name: string) => (server.server.ctx.db.prepare('SELECT id FROM users WHERE username = ?').get(name) as { id: number }).id;
      const decided = [ann, ben, cat, staff].map((socket) => recordEvents(socket, 'item.decided'));
      const released = [ann, ben, cat, staff].map((socket) => recordEvents(socket, 'item.released'));
      const done = [ann, ben, cat, staff].map((socket) => nextEvent(socket, 'item.claimed', (p) => (p as { item_id: number }).item_id === 5003));
      publish('item.decided', { item_id: 5001, status: 'needs_adjudication' }, { users: [id('ann'), id('ben'), id('cora')], payload: { item_id: 5001, status: 'in_review' } });
      publish('item.released', { item_id: 5002 }, { users: [id('ann')], payload: null });
      publish('item.claimed', { item_id: 5003 });
      await Promise.all(done);
      const [annDecided, benDecided, catDecided, staffDecided] = decided;
      expect(annDecided).toEqual([{ item_id: 5001, status: 'in_review' }]);
      expect(benDecided).toEqual([{ item_id: 5001, status: 'in_review' }]);
      expect(catDecided).toEqual([{ item_id: 5001, status: 'needs_adjudication' }]);
      // A curator among the sealed users gets the event itself.
      expect(staffDecided).toEqual([{ item_id: 5001, status: 'needs_adjudication' }]);
      expect(released.map((events) => events.length)).toEqual([0, 1, 1, 1]);
    } finally {
      staff.close();
    }
  });

  it('and one published later, alone, still arrives at once', async () => {
    const arrived = sockets.map((socket) => nextEvent(socket, 'item.released', (payload) => (payload as { item_id: number }).item_id === 1000, 2_000));
    server.server.ctx.publish('item.released', { item_id: 1000 });
    await Promise.all(arrived);
  });
});
