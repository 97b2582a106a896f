import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemsApi } from '../../shared/api/items';
import { reflectionApi, ReflectionListResponseSchema } from '../../shared/api/reflection';
import { reviewApi } from '../../shared/api/review';
import { ErrorBodySchema } from '../../shared/errors';
import { ServerEventSchemas } from '../../shared/events';
import { putSettings } from '../../server/settings/settings-queries';
import { TestClient } from '../support/http-client';
import { acceptReview, generateItems, rejectReview } from '../support/review-fixtures';
import { connectAs, nextEvent, recordEvents, type TestSocket } from '../support/socket-client';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Blind review is blind (issue 12, point 3): while an item is not decided, no reviewer but the
 * one who wrote a review can read it by any route or event — and curators and admins still see
 * everything.
 */
let server: TestServer;
let curator: TestClient;
let ann: TestClient;
let ben: TestClient;
let cid: TestClient;
const db = () => server.server.ctx.db;
const userId = (name: string) => (db().prepare('SELECT id FROM users WHERE username = ?').get(name) as { id: number }).id;

const ANN_SECRET = 'Ann thinks the answer should be 4711';

beforeAll(async () => {
  server = await startTestServer();
  await generateItems(server, 12);
  for (const [name, role] of [
    ['cora', 'curator'],
    ['ann', 'reviewer'],
    ['ben', 'reviewer'],
    ['cid', 'reviewer'],
  ] as const) {
    await server.createUser(name, role, `${name}-password-1`);
  }
  const signIn = async (name: string) => {
    const client = new TestClient(server.url);
    await client.login(name, `${name}-password-1`);
    return client;
  };
  curator = await signIn('cora');
  ann = await signIn('ann');
  ben = await signIn('ben');
  cid = await signIn('cid');
  // Two reviews decide an item, so one standing review leaves it in review.
  putSettings(db(), { reviews_per_item: 2, consensus_rule: 'majority', auto_reflect: false, reflection_min_decisions: 1, retire_min_decisions: 1000 });
});
afterAll(async () => {
  await server.close();
});

/** The caller claims the next item of the proposal (but the excluded ones) and reviews it. */
async function claimAndReview(client: TestClient, body: ReturnType<typeof acceptReview>, proposalId: number, exclude: number[] = []): Promise<number> {
  const task = (await client.call(reviewApi.next, { body: { proposal_id: proposalId, exclude_item_ids: exclude } })).task;
  if (!task) throw new Error('the queue is empty');
  const res = await client.send(reviewApi.submit, { params: { id: task.item.id }, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return task.item.id;
}

describe('routes, while an item is in review', () => {
  let proposalId: number;
  let open: number;
  let requeued: number;

  beforeAll(async () => {
    ({ proposal_id: proposalId } = db()
      .prepare('SELECT proposal_id FROM hqa_items WHERE proposal_id IS NOT NULL GROUP BY proposal_id HAVING COUNT(*) >= 2 ORDER BY proposal_id LIMIT 1')
      .get() as { proposal_id: number });
    // One item of the proposal rejected by ann and ben, reflected on, then sent back to review by a curator.
    requeued = await claimAndReview(ann, rejectReview(`${ANN_SECRET}, and the slices no longer sum to 100.`), proposalId);
    const task = (await ben.call(reviewApi.next, { body: { proposal_id: proposalId } })).task;
    expect(task?.item.id).toBe(requeued);
    expect((await ben.send(reviewApi.submit, { params: { id: requeued }, body: rejectReview('Ben agrees: the slices do not sum to 100.') })).status).toBe(201);
    expect((await curator.send(reflectionApi.reflect, { params: { id: proposalId } })).status).toBe(201);
    expect((await curator.send(reviewApi.requeue, { body: { item_ids: [requeued] } })).body).toEqual({ requeued: 1 });
    // Another item of it: ann's review stands, the item waits for a second one.
    open = await claimAndReview(ann, acceptReview({ corrected_answer: '4711', feedback: ANN_SECRET }), proposalId, [requeued]);
    expect(db().prepare('SELECT status FROM hqa_items WHERE id = ?').get(open)).toEqual({ status: 'in_review' });
    expect(db().prepare('SELECT status FROM hqa_items WHERE id = ?').get(requeued)).toEqual({ status: 'pending' });
  });

  it('a second reviewer finds none of its reviews on the proposal page (feedback or reflections); a curator finds the reflection whole', async () => {
    const seenByCid = (await cid.send(reflectionApi.list, { params: { id: proposalId } })).body;
    expect(JSON.stringify(seenByCid)).not.toContain('Ann thinks');
    const listed = ReflectionListResponseSchema.parse(seenByCid);
    expect(listed.reflections).toHaveLength(1);
    expect(listed.reflections[0]).toMatchObject({ feedback: [], addressed: null });

    const seenByCurator = await curator.call(reflectionApi.list, { params: { id: proposalId } });
    expect(seenByCurator.reflections[0]?.feedback.map((f) => f.item_id)).toEqual([requeued, requeued]);
    expect(JSON.stringify(seenByCurator.reflections[0])).toContain('Ann thinks');
    expect(seenByCurator.reflections[0]?.addressed).not.toBeNull();
  });

  it('a reviewer may list only the items they reviewed themselves; curators any reviewer’s', async () => {
    const other = await ben.send(itemsApi.list, { query: { reviewer_id: userId('ann') } });
    expect(other.status).toBe(403);
    expect(ErrorBodySchema.parse(other.body).error).toMatchObject({ code: 'forbidden', field: 'query.reviewer_id' });
    const own = await ann.call(itemsApi.list, { query: { reviewer_id: userId('ann') } });
    expect(own.items.map((i) => i.id)).toContain(open);
    const byCurator = await curator.call(itemsApi.list, { query: { reviewer_id: userId('ann') } });
    expect(byCurator.items.map((i) => i.id)).toEqual(expect.arrayContaining([open, requeued]));
  });

  it('the item page carries no review to a second reviewer, and its history is for curators', async () => {
    for (const id of [open, requeued]) {
      const detail = await ben.send(itemsApi.get, { params: { id } });
      expect(detail.status).toBe(200);
      expect(JSON.stringify(detail.body)).not.toMatch(/Ann thinks|4711/);
      expect((await ben.send(reviewApi.history, { params: { id } })).status).toBe(403);
    }
    const history = await curator.call(reviewApi.history, { params: { id: open } });
    expect(history.reviews).toMatchObject([{ reviewer: 'ann', feedback: ANN_SECRET, corrected_answer: '4711' }]);
  });

  it('the second reviewer’s task is blind too: only the answer ann proposed, anonymous and checked, so that it can be agreed on', async () => {
    const task = (await ben.call(reviewApi.next, { body: { proposal_id: proposalId } })).task;
    expect(task?.item.id).toBe(open);
    expect(task?.proposed_answers).toEqual([
      { answer: '4711', answer_type: 'integer', recomputed_answer: task?.item.verifier.recomputed_answer ?? null, matches_recomputed: false, is_factual_label: false },
    ]);
    const { proposed_answers: _proposed, ...rest } = task ?? {};
    expect(JSON.stringify(rest)).not.toMatch(/Ann thinks|4711|"reviewer|decision/);
    expect(JSON.stringify(task)).not.toMatch(/Ann thinks|"reviewer|decision/);
    expect((await ben.send(reviewApi.release, { params: { id: open } })).status).toBe(200);
  });
});

describe('socket payloads', () => {
  const sockets: TestSocket[] = [];
  afterAll(() => {
    for (const socket of sockets) socket.close();
  });

  it('item.claimed and presence name no one to reviewers, and everyone to curators', async () => {
    const benSocket = await connectAs(server.url, ben);
    const curatorSocket = await connectAs(server.url, curator);
    sockets.push(benSocket, curatorSocket, await connectAs(server.url, ann));
    const benClaims = recordEvents(benSocket, 'item.claimed');
    const benPresence = recordEvents(benSocket, 'presence.changed');
    const curatorSawClaim = nextEvent(curatorSocket, 'item.claimed');
    const presenceOfAll = (payload: unknown) => {
      const users = ServerEventSchemas['presence.changed'].parse(payload).users ?? [];
      return ['ann', 'ben', 'cora'].every((name) => users.some((u) => u.username === name)) && users.some((u) => u.username === 'ann' && u.reviewing > 0);
    };
    const curatorSawPresence = nextEvent(curatorSocket, 'presence.changed', presenceOfAll);

    const task = (await ann.call(reviewApi.next, { body: {} })).task;
    expect(task).not.toBeNull();
    expect(await curatorSawClaim).toEqual({ item_id: task?.item.id, reviewer_id: userId('ann') });
    const presence = ServerEventSchemas['presence.changed'].parse(await curatorSawPresence);
    expect(presence.users?.find((u) => u.username === 'ann')).toMatchObject({ role: 'reviewer', reviewing: 1 });

    // Ben got the same events, with no one in them.
    await expect.poll(() => benClaims.length).toBeGreaterThan(0);
    expect(benClaims).toEqual([{ item_id: task?.item.id }]);
    await expect.poll(() => benPresence.some((p) => ServerEventSchemas['presence.changed'].parse(p).reviewing > 0)).toBe(true);
    for (const payload of benPresence) {
      expect(Object.keys(payload as object).sort()).toEqual(['online', 'reviewing']);
    }
    expect(JSON.stringify(benPresence)).not.toMatch(/ann|cora|ben/);
    expect(ServerEventSchemas['presence.changed'].parse(benPresence.at(-1)).online).toBe(3);
    expect((await ann.send(reviewApi.release, { params: { id: task?.item.id } })).status).toBe(200);
  });
});
