import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reviewApi } from '../../shared/api/review';
import { TestClient } from '../support/http-client';
import { acceptReview, generateItems } from '../support/review-fixtures';
import { connectAs, nextEvent, recordEvents, type TestSocket } from '../support/socket-client';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * `review.submitted` (issue 33 point 3): a reviewer's stored review is pushed to all their own
 * tabs, so a second tab on the same item stops offering it; nobody else hears of it (blind).
 */
let server: TestServer;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  server = await startTestServer();
  await generateItems(server, 6);
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server.close();
});

async function reviewer(name: string): Promise<TestClient> {
  await server.createUser(name, 'reviewer', `${name}-password`);
  const client = new TestClient(server.url);
  await client.login(name, `${name}-password`);
  return client;
}

async function socketOf(client: TestClient): Promise<TestSocket> {
  const socket = await connectAs(server.url, client);
  sockets.push(socket);
  return socket;
}

describe('review.submitted', () => {
  it("reaches every tab of the reviewer who submitted, with the submit's review id, and no one else", async () => {
    const ann = await reviewer('ann');
    const ben = await reviewer('ben');
    const [tabOne, tabTwo, bens] = [await socketOf(ann), await socketOf(ann), await socketOf(ben)];
    const heardByBen = recordEvents(bens, 'review.submitted');

    const { task } = await ann.call(reviewApi.next, { body: {} });
    if (!task) throw new Error('the queue is empty');
    const onTabOne = nextEvent(tabOne, 'review.submitted');
    const onTabTwo = nextEvent(tabTwo, 'review.submitted');
    const { review_id: reviewId } = await ann.call(reviewApi.submit, { params: { id: task.item.id }, body: acceptReview() });

    expect(await onTabOne).toEqual({ item_id: task.item.id, review_id: reviewId });
    expect(await onTabTwo).toEqual({ item_id: task.item.id, review_id: reviewId });
    // Ben's own review is pushed to him, so his socket is live; Ann's never reached it.
    const benTask = (await ben.call(reviewApi.next, { body: {} })).task;
    if (!benTask) throw new Error('the queue is empty');
    const onBens = nextEvent(bens, 'review.submitted');
    expect((await ben.send(reviewApi.submit, { params: { id: benTask.item.id }, body: acceptReview() })).status).toBe(201);
    await onBens;
    expect(heardByBen.map((payload) => (payload as { item_id: number }).item_id)).toEqual([benTask.item.id]);
  });
});
