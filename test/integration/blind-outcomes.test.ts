import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { itemDiscussionApi } from '../../shared/api/item-discussion';
import { ItemDetailResponseSchema, ItemListResponseSchema, itemsApi } from '../../shared/api/items';
import { reflectionApi } from '../../shared/api/reflection';
import { reviewApi, type ReviewTask, type SubmitReviewRequest, type SubmitReviewResponse, SubmitReviewResponseSchema, UndoResponseSchema } from '../../shared/api/review';
import { ErrorBodySchema } from '../../shared/errors';
import { ServerEventSchemas } from '../../shared/events';
import { putSettings } from '../../server/settings/settings-queries';
import { buildItem, dropLeases, rejectOpenItems, setItemProposal, unmarkAllGold } from '../support/factories';
import { searchQuery, TestClient } from '../support/http-client';
import { acceptReview, rejectReview } from '../support/review-fixtures';
import { connectAs, nextEvent, recordEvents, type TestSocket } from '../support/socket-client';
import { signedIn } from '../support/signed-in-users';
import { startTestServer, type TestServer } from '../support/test-server';
import { goldApi } from '../../shared/api/gold';

/**
 * Blind means blind (issue 33, point 1): while an item's outcome rests on other reviewers'
 * verdicts too (k ≥ 2, or a gold item's), no answer, event or page tells a reviewer that
 * outcome or another reviewer's verdict; an undo takes back only a review that has not decided
 * the item with others; a gold item looks like any other item by every route a reviewer can
 * reach. Curators and admins still see everything.
 */
let server: TestServer;
let cora: TestClient;
let ann: TestClient;
let ben: TestClient;
let cid: TestClient;
let dee: TestClient;
const sockets: TestSocket[] = [];
const db = () => server.server.ctx.db;
const userId = (name: string) => (db().prepare('SELECT id FROM users WHERE username = ?').get(name) as { id: number }).id;
const statusOf = (id: number) => (db().prepare('SELECT status FROM hqa_items WHERE id = ?').get(id) as { status: string }).status;
const standing = (id: number) => (db().prepare('SELECT COUNT(*) AS n FROM reviews WHERE item_id = ? AND retracted_at IS NULL').get(id) as { n: number }).n;
let qaIds: number[] = [];
let seedProposal: number;

beforeAll(async () => {
  server = await startTestServer();
  for (const [name, role] of [
    ['cora', 'curator'],
    ['ann', 'reviewer'],
    ['ben', 'reviewer'],
    ['cid', 'reviewer'],
    ['dee', 'reviewer'],
  ] as const) {
    await server.createUser(name, role, `${name}-password-1`);
  }
  const signIn = (name: string) => signedIn(server, name, `${name}-password-1`);
  [cora, ann, ben, cid, dee] = await Promise.all(['cora', 'ann', 'ben', 'cid', 'dee'].map(signIn)) as [TestClient, TestClient, TestClient, TestClient, TestClient];
  qaIds = (
    db().prepare('SELECT q.id FROM factual_qas q JOIN charts c ON c.id = q.chart_id WHERE c.data_table IS NOT NULL AND q.group_id IS NULL ORDER BY q.id LIMIT 20').all() as { id: number }[]
  ).map((r) => r.id);
  seedProposal = (db().prepare("SELECT id FROM proposals WHERE origin = 'seed' ORDER BY id LIMIT 1").get() as { id: number }).id;
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server.close();
});
beforeEach(() => {
  dropLeases(db());
  putSettings(db(), { reviews_per_item: 2, consensus_rule: 'majority', gold_share: 0, auto_reflect: false });
});

/**
 * `count` new items on a seed proposal, the only open ones (earlier tests' are set aside), each
 * with a numeric answer the verifier recomputes: `1` unless the draft says otherwise.
 */
function freshItems(count: number): number[] {
  rejectOpenItems(db());
  return Array.from({ length: count }, (_, n) => {
    const id = buildItem(db(), { qaId: qaIds[n % qaIds.length] ?? 0 });
    setItemProposal(db(), id, seedProposal);
    return id;
  });
}

async function claim(client: TestClient): Promise<ReviewTask> {
  const { task } = await client.call(reviewApi.next, { body: {} });
  if (!task) throw new Error('the queue is empty');
  return task;
}

async function submit(client: TestClient, itemId: number, review: SubmitReviewRequest): Promise<SubmitReviewResponse> {
  const res = await client.send(reviewApi.submit, { params: { id: itemId }, body: review });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return SubmitReviewResponseSchema.parse(res.body);
}

/** The item as `client` is shown it on its page. */
async function itemAs(client: TestClient, itemId: number) {
  const res = await client.send(itemsApi.get, { params: { id: itemId } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return ItemDetailResponseSchema.parse(res.body).item;
}

/** The ids `client` finds in the Items list under `query`. */
async function listedAs(client: TestClient, query: string): Promise<number[]> {
  const res = await client.send(itemsApi.list, { query: { ...searchQuery(query), page_size: 100 } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return ItemListResponseSchema.parse(res.body).items.map((item) => item.id);
}

async function feedbackItemsAs(client: TestClient): Promise<number[]> {
  return (await client.call(reflectionApi.list, { params: { id: seedProposal } })).feedback.map((entry) => entry.item_id);
}

async function commentsAs(client: TestClient, itemId: number): Promise<string[]> {
  return (await client.call(itemDiscussionApi.comments, { params: { id: itemId } })).comments.map((comment) => comment.body);
}

async function socketOf(client: TestClient): Promise<TestSocket> {
  const socket = await connectAs(server.url, client);
  sockets.push(socket);
  return socket;
}

/** The statuses of the item.decided events for `itemId` among those recorded. */
const decidedStatuses = (events: unknown[], itemId: number) =>
  events.map((payload) => ServerEventSchemas['item.decided'].parse(payload)).filter((p) => p.item_id === itemId).map((p) => p.status);

const CANNOT_UNDO = /together with other reviewers' reviews: it can no longer be taken back/;

describe('k = 2: the reviewers of an item learn nothing of its outcome', () => {
  it('neither submit response tells the outcome; the first review may be undone while the item waits, none once it is decided', async () => {
    const [item] = freshItems(1) as [number];
    expect((await claim(ann)).item.id).toBe(item);
    const first = await submit(ann, item, acceptReview());
    expect(first.item_status).toBe('submitted');
    expect(first.undo_until).not.toBeNull();
    // The item still waits on a second review: the first reviewer may take theirs back.
    const undone = await ann.send(reviewApi.undo, { params: { id: first.review_id } });
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    expect(UndoResponseSchema.parse(undone.body).task.item.id).toBe(item);
    const annReview = await submit(ann, item, acceptReview());

    expect((await claim(ben)).item.id).toBe(item);
    const benReview = await submit(ben, item, rejectReview());
    // The split is not told: no status, and no undo that would let ben read it and change his verdict.
    expect(benReview).toEqual({ review_id: benReview.review_id, item_status: 'submitted', undo_until: null });
    expect(statusOf(item)).toBe('needs_adjudication');

    for (const [client, review] of [
      [ben, benReview],
      [ann, annReview],
    ] as const) {
      const refused = await client.send(reviewApi.undo, { params: { id: review.review_id } });
      expect(refused.status).toBe(409);
      const { message } = ErrorBodySchema.parse(refused.body).error;
      expect(message).toMatch(CANNOT_UNDO);
      expect(message).toContain(`item ${item}`);
      expect(message).not.toMatch(/adjudicat|accept|reject/);
    }
    expect(statusOf(item)).toBe('needs_adjudication');
    expect(standing(item)).toBe(2);
  });

  it('item.decided reaches curators and other reviewers; its own reviewers are told only that it is in review', async () => {
    const [item] = freshItems(1) as [number];
    const [annSocket, benSocket, cidSocket, coraSocket] = await Promise.all([socketOf(ann), socketOf(ben), socketOf(cid), socketOf(cora)]);
    const seen = { ann: recordEvents(annSocket, 'item.decided'), ben: recordEvents(benSocket, 'item.decided'), cid: recordEvents(cidSocket, 'item.decided'), cora: recordEvents(coraSocket, 'item.decided') };
    await claim(ann);
    await submit(ann, item, acceptReview());
    await claim(ben);
    await submit(ben, item, rejectReview());
    await expect.poll(() => decidedStatuses(seen.cora, item)).toEqual(['in_review', 'needs_adjudication']);
    await expect.poll(() => decidedStatuses(seen.cid, item)).toEqual(['in_review', 'needs_adjudication']);
    await expect.poll(() => decidedStatuses(seen.ann, item)).toEqual(['in_review', 'in_review']);
    await expect.poll(() => decidedStatuses(seen.ben, item)).toEqual(['in_review', 'in_review']);

    // The adjudication reaches them the same way.
    const adjudicated = nextEvent(coraSocket, 'item.decided', (p) => ServerEventSchemas['item.decided'].parse(p).status === 'accepted');
    expect((await cora.send(reviewApi.adjudicate, { params: { id: item }, body: { decision: 'accept', final_answer: '2' } })).status).toBe(200);
    await adjudicated;
    await expect.poll(() => decidedStatuses(seen.cid, item).at(-1)).toBe('accepted');
    await expect.poll(() => decidedStatuses(seen.ann, item)).toHaveLength(3);
    await expect.poll(() => decidedStatuses(seen.ben, item)).toHaveLength(3);
    expect([...decidedStatuses(seen.ann, item), ...decidedStatuses(seen.ben, item)].every((status) => status === 'in_review')).toBe(true);
  });

  it('its page, the lists and their filters, its feedback and its thread read “in review” to its reviewers; curators and other reviewers see it as it is', async () => {
    const [item] = freshItems(1) as [number];
    await claim(ann);
    const annReview = await submit(ann, item, acceptReview({ feedback: 'Ann: the answer holds.' }));
    await claim(ben);
    expect((await ben.send(itemDiscussionApi.postComment, { params: { id: item }, body: { body: 'Ben: the layout breaks.' } })).status).toBe(201);
    await submit(ben, item, rejectReview('Ben: the layout breaks, so I reject.'));
    expect((await cora.send(reviewApi.adjudicate, { params: { id: item }, body: { decision: 'accept', final_answer: '2' } })).status).toBe(200);
    expect(statusOf(item)).toBe('accepted');

    for (const reviewer of [ann, ben]) {
      expect(await itemAs(reviewer, item)).toMatchObject({ status: 'in_review', final_answer: null });
      expect(await feedbackItemsAs(reviewer)).not.toContain(item);
    }
    expect(await itemAs(cid, item)).toMatchObject({ status: 'accepted', final_answer: '2' });
    expect(await itemAs(cora, item)).toMatchObject({ status: 'accepted', final_answer: '2' });
    expect(await feedbackItemsAs(cid)).toContain(item);
    expect(await feedbackItemsAs(cora)).toContain(item);

    // The list finds it by the status each is shown, and sorts by it.
    const mine = `reviewer_id=${userId('ann')}`;
    expect(await listedAs(ann, `${mine}&status=accepted`)).not.toContain(item);
    expect(await listedAs(ann, `${mine}&status=in_review`)).toContain(item);
    expect(await listedAs(ann, `${mine}&sort=status`)).toContain(item);
    expect(await listedAs(cid, 'status=accepted')).toContain(item);
    expect(await listedAs(cora, `${mine}&status=accepted`)).toContain(item);

    // Ben's comment is the curators' and his own; once the item is decided, other reviewers may read it — not ann.
    expect(await commentsAs(ann, item)).not.toContain('Ben: the layout breaks.');
    expect(await commentsAs(cid, item)).toContain('Ben: the layout breaks.');
    expect(await commentsAs(ben, item)).toContain('Ben: the layout breaks.');

    // A curator's edit of the decided item names its status and the answer it had: not to its reviewers.
    expect((await cora.send(itemDiscussionApi.edit, { params: { id: item }, body: { answer: '3', reason: 'The adjudicated answer was off by one.' } })).status).toBe(200);
    const editsAs = async (client: TestClient) => (await client.call(itemDiscussionApi.edits, { params: { id: item } })).edits;
    expect(await editsAs(ann)).toEqual([]);
    expect(await editsAs(cid)).toMatchObject([{ status_at_edit: 'accepted' }]);

    // Nor does an undo tell her that it went to adjudication.
    const refused = await ann.send(reviewApi.undo, { params: { id: annReview.review_id } });
    expect(refused.status).toBe(409);
    expect(ErrorBodySchema.parse(refused.body).error.message).toMatch(CANNOT_UNDO);
  });
});

describe('gold items look like any other item to reviewers', () => {
  /** An item ann accepted at k = 1 (with a comment while reviewing), marked gold, gold served to every claim. */
  async function goldItem(): Promise<number> {
    putSettings(db(), { reviews_per_item: 1 });
    const [item] = freshItems(1) as [number];
    expect((await claim(ann)).item.id).toBe(item);
    expect((await ann.send(itemDiscussionApi.postComment, { params: { id: item }, body: { body: 'Ann: answer checked, layout fine.' } })).status).toBe(201);
    await submit(ann, item, acceptReview({ feedback: 'Ann: fine.' }));
    unmarkAllGold(db());
    expect((await cora.send(goldApi.mark, { params: { id: item } })).status).toBe(200);
    rejectOpenItems(db());
    putSettings(db(), { gold_share: 1 });
    return item;
  }

  it('at k = 1: ids, status, answer, lists, feedback, thread and events read as for the reviewer’s own regular item', async () => {
    const gold = await goldItem();
    const reviewIdBefore = (db().prepare('SELECT MAX(id) AS n FROM reviews').get() as { n: number }).n;
    // Before it is served, a reviewer who did not decide it finds it in review, not among the accepted.
    expect(await itemAs(cid, gold)).toMatchObject({ status: 'in_review', final_answer: null });
    expect(await listedAs(cid, 'status=accepted')).not.toContain(gold);
    expect(await feedbackItemsAs(cid)).not.toContain(gold);
    expect(await commentsAs(cid, gold)).not.toContain('Ann: answer checked, layout fine.');
    // Ann, who decided it, sees it as she left it; curators see it as it is.
    expect(await itemAs(ann, gold)).toMatchObject({ status: 'accepted' });
    expect(await feedbackItemsAs(cora)).toContain(gold);

    const [benSocket, coraSocket] = await Promise.all([socketOf(ben), socketOf(cora)]);
    const benDecided = recordEvents(benSocket, 'item.decided');
    const benReleased = recordEvents(benSocket, 'item.released');
    const coraDecided = recordEvents(coraSocket, 'item.decided');
    const coraReleased = nextEvent(coraSocket, 'item.released', (p) => (p as { item_id: number }).item_id === gold);
    // A reviewer's comment on a gold item is pushed to curators only, as one on an item in review is.
    const benComments = recordEvents(benSocket, 'comment.created');
    const coraComment = nextEvent(coraSocket, 'comment.created', (p) => (p as { comment: { body: string } }).comment.body === 'Ann: still fine.');
    expect((await ann.send(itemDiscussionApi.postComment, { params: { id: gold }, body: { body: 'Ann: still fine.' } })).status).toBe(201);
    await coraComment;

    const task = await claim(ben);
    expect(task.item).toMatchObject({ id: gold, status: 'in_review', final_answer: null });
    expect(task.proposed_answers).toEqual([]);
    expect(await itemAs(ben, gold)).toMatchObject({ status: 'in_review', final_answer: null });
    const result = await submit(ben, gold, acceptReview({ criteria: { ...acceptReview().criteria, correctness: { pass: false, note: 'one more' } }, corrected_answer: '2' }));
    // As a regular k = 1 review: its own decision, an undo window, and an id from the reviews' own sequence.
    expect(result.item_status).toBe('accepted');
    expect(result.undo_until).not.toBeNull();
    expect(result.review_id).toBe(reviewIdBefore + 1);

    // Ben's events say what a regular decision says; curators see a lease end, no decision.
    await expect.poll(() => decidedStatuses(benDecided, gold)).toEqual(['accepted']);
    await coraReleased;
    expect(benReleased.some((p) => (p as { item_id: number }).item_id === gold)).toBe(false);
    expect(decidedStatuses(coraDecided, gold)).toEqual([]);
    expect(benComments).toEqual([]);

    // His item page and list show his decision and his correction, as for a regular item he decided alone.
    expect(await itemAs(ben, gold)).toMatchObject({ status: 'accepted', final_answer: '2' });
    expect(await listedAs(ben, `reviewer_id=${userId('ben')}&status=accepted`)).toContain(gold);
    expect(await feedbackItemsAs(ben)).not.toContain(gold);
    expect(await commentsAs(ben, gold)).not.toContain('Ann: answer checked, layout fine.');
    expect(await itemAs(cora, gold)).toMatchObject({ status: 'accepted', final_answer: null });
    expect(await commentsAs(cora, gold)).toContain('Ann: answer checked, layout fine.');

    // The next regular review takes the next id: the ids of gold reviews are no range of their own.
    putSettings(db(), { gold_share: 0 });
    const [regular] = freshItems(1) as [number];
    expect((await claim(ben)).item.id).toBe(regular);
    expect((await submit(ben, regular, acceptReview())).review_id).toBe(result.review_id + 1);

    // Undone within its window, as a regular k = 1 review: the item is his task again.
    const undone = await ben.send(reviewApi.undo, { params: { id: result.review_id } });
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    expect(UndoResponseSchema.parse(undone.body).task.item).toMatchObject({ id: gold, status: 'in_review' });
    expect(statusOf(gold)).toBe('accepted');
  });

  it('at k = 2: the response and the refused undo are a regular deciding review’s', async () => {
    const gold = await goldItem();
    putSettings(db(), { reviews_per_item: 2 });
    expect((await claim(dee)).item.id).toBe(gold);
    const result = await submit(dee, gold, rejectReview());
    expect(result).toEqual({ review_id: result.review_id, item_status: 'submitted', undo_until: null });
    expect(await itemAs(dee, gold)).toMatchObject({ status: 'in_review', final_answer: null });
    const refused = await dee.send(reviewApi.undo, { params: { id: result.review_id } });
    expect(refused.status).toBe(409);
    expect(ErrorBodySchema.parse(refused.body).error.message).toMatch(CANNOT_UNDO);
    expect(db().prepare('SELECT COUNT(*) AS n FROM gold_reviews WHERE id = ?').get(result.review_id)).toEqual({ n: 1 });
  });
});
