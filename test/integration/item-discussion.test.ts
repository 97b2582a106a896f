import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EditItemResponseSchema, itemDiscussionApi } from '../../shared/api/item-discussion';
import { itemsApi } from '../../shared/api/items';
import { ServerEventSchemas } from '../../shared/events';
import { buildChart, buildItem, buildQa, correctAnswer, setItemStatus } from '../support/factories';
import { TestClient } from '../support/http-client';
import { connectAs, nextEvent, recordEvents, type TestSocket } from '../support/socket-client';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * An item's thread (reviewers and curators, mentions told live to the mentioned user only) and
 * curators' direct edits: kept with who and why, the verifier run again on the edited item.
 */
let server: TestServer;
const clients: Record<'ann' | 'ben' | 'cat' | 'cur', TestClient> = {} as never;
const sockets: TestSocket[] = [];
let socketOf: Record<'ben' | 'cat', TestSocket>;
let itemId: number;
let acceptedId: number;
/** Decided, so its whole thread is open to every reviewer. */
let threadId: number;

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  for (const [name, role] of [['ann', 'reviewer'], ['ben', 'reviewer'], ['cat', 'reviewer'], ['cur', 'curator']] as const) {
    await server.createUser(name, role, `${name}-pass-123`);
    clients[name] = new TestClient(server.url);
    await clients[name].login(name, `${name}-pass-123`);
  }
  socketOf = { ben: await connectAs(server.url, clients.ben), cat: await connectAs(server.url, clients.cat) };
  sockets.push(socketOf.ben, socketOf.cat);
  const db = server.server.ctx.db;
  const chartId = buildChart(db);
  // The default draft's program is `1` with answer `1`: the verifier matches until the answer changes.
  itemId = buildItem(db, { qaId: buildQa(db, { chartId }) });
  acceptedId = buildItem(db, { qaId: buildQa(db, { chartId }), status: 'accepted' });
  threadId = buildItem(db, { qaId: buildQa(db, { chartId }), status: 'rejected' });
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server.close();
});

const commentIdOf = (payload: unknown) => ServerEventSchemas['comment.mentioned'].parse(payload).comment.id;

describe('an item comment thread', () => {
  it('stores a comment with its existing mentions and lists the thread oldest first', async () => {
    const { comment } = await clients.ann.call(itemDiscussionApi.postComment, { params: { id: threadId }, body: { body: 'Is 1 right? @ben and @nobody, see @cur.' } });
    expect(comment).toMatchObject({ item_id: threadId, author: { username: 'ann' }, body: 'Is 1 right? @ben and @nobody, see @cur.' });
    expect(comment.mentions.sort()).toEqual(['ben', 'cur']);
    await clients.cur.send(itemDiscussionApi.postComment, { params: { id: threadId }, body: { body: 'Yes.' } });
    const thread = await clients.ben.call(itemDiscussionApi.comments, { params: { id: threadId } });
    expect(thread.comments.map((c) => [c.author.username, c.body])).toEqual([
      ['ann', 'Is 1 right? @ben and @nobody, see @cur.'],
      ['cur', 'Yes.'],
    ]);
  });

  it('tells everyone of a new comment and only the mentioned user of the mention', async () => {
    const catMentions = recordEvents(socketOf.cat, 'comment.mentioned');
    // By body: the mention of ben in the test before may still be on its way.
    const benMention = nextEvent(socketOf.ben, 'comment.mentioned', (p) => ServerEventSchemas['comment.mentioned'].parse(p).comment.body === '@ben look');
    const catSees = nextEvent(socketOf.cat, 'comment.created', (p) => ServerEventSchemas['comment.created'].parse(p).comment.body === '@ben look');
    const posted = (await clients.ann.call(itemDiscussionApi.postComment, { params: { id: threadId }, body: { body: '@ben look' } })).comment;
    expect(commentIdOf(await benMention)).toBe(posted.id);
    expect(ServerEventSchemas['comment.created'].parse(await catSees).comment.id).toBe(posted.id);
    // Events reach a socket in the order they were published: once cat has the mention of a later
    // comment, any mention of the first would have arrived before it.
    const catMention = nextEvent(socketOf.cat, 'comment.mentioned');
    const second = (await clients.ann.call(itemDiscussionApi.postComment, { params: { id: threadId }, body: { body: 'and @CAT too' } })).comment;
    expect(commentIdOf(await catMention)).toBe(second.id);
    expect(catMentions.map(commentIdOf)).toEqual([second.id]);
  });

  it('keeps review blind: before a decision a reviewer\'s comment reaches curators and its author, not other reviewers', async () => {
    const curSocket = await connectAs(server.url, clients.cur);
    sockets.push(curSocket);
    const catCreated = recordEvents(socketOf.cat, 'comment.created');
    const catMentions = recordEvents(socketOf.cat, 'comment.mentioned');
    const curSees = nextEvent(curSocket, 'comment.created', (p) => ServerEventSchemas['comment.created'].parse(p).comment.body === 'I would reject: the answer is 2 @cat @cur');
    const posted = (await clients.ben.call(itemDiscussionApi.postComment, { params: { id: itemId }, body: { body: 'I would reject: the answer is 2 @cat @cur' } })).comment;
    expect(ServerEventSchemas['comment.created'].parse(await curSees)).toMatchObject({ comment: { id: posted.id }, staff_only: true });
    // A curator's comment is for everyone, and events keep their order: once cat has it, ben's would have come before.
    const catSeesStaff = nextEvent(socketOf.cat, 'comment.created', (p) => ServerEventSchemas['comment.created'].parse(p).comment.body === 'Thanks, noted.');
    await clients.cur.send(itemDiscussionApi.postComment, { params: { id: itemId }, body: { body: 'Thanks, noted.' } });
    await catSeesStaff;
    expect(catCreated.map((p) => ServerEventSchemas['comment.created'].parse(p).comment.id)).not.toContain(posted.id);
    expect(catMentions.map(commentIdOf)).not.toContain(posted.id);
    expect(posted.mentions).toEqual(['cur']);

    const bodiesFor = async (who: 'ben' | 'cat' | 'cur') => (await clients[who].call(itemDiscussionApi.comments, { params: { id: itemId } })).comments.map((c) => c.body);
    expect(await bodiesFor('cat')).not.toContain(posted.body);
    expect(await bodiesFor('ben')).toContain(posted.body);
    expect(await bodiesFor('cur')).toContain(posted.body);
    // Once the item is decided, the whole thread is open.
    setItemStatus(server.server.ctx.db, 'rejected', [itemId]);
    expect(await bodiesFor('cat')).toContain(posted.body);
    setItemStatus(server.server.ctx.db, 'pending', [itemId]);
  });

  it('refuses an empty comment (400 naming the field), an unknown item (404) and a visitor (401)', async () => {
    const empty = await clients.ann.send(itemDiscussionApi.postComment, { params: { id: itemId }, body: { body: '   ' } });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ error: { field: 'body.body' } });
    expect((await clients.ann.send(itemDiscussionApi.postComment, { params: { id: 999_999 }, body: { body: 'hello' } })).status).toBe(404);
    expect((await clients.ann.send(itemDiscussionApi.comments, { params: { id: 999_999 } })).status).toBe(404);
    expect((await new TestClient(server.url).send(itemDiscussionApi.comments, { params: { id: itemId } })).status).toBe(401);
  });
});

describe('a curator edit', () => {

  it('is refused to a reviewer (403) and without a reason or a change (400)', async () => {
    expect((await clients.ann.send(itemDiscussionApi.edit, { params: { id: itemId }, body: { answer: '2', reason: 'typo' } })).status).toBe(403);
    const noReason = await clients.cur.send(itemDiscussionApi.edit, { params: { id: itemId }, body: { answer: '2' } });
    expect(noReason.status).toBe(400);
    expect(noReason.body).toMatchObject({ error: { field: 'body.reason' } });
    const noField = await clients.cur.send(itemDiscussionApi.edit, { params: { id: itemId }, body: { reason: 'nothing' } });
    expect(noField.status).toBe(400);
    const unchanged = await clients.cur.send(itemDiscussionApi.edit, { params: { id: itemId }, body: { answer: '1', reason: 'same' } });
    expect(unchanged.status).toBe(400);
    expect((await clients.cur.send(itemDiscussionApi.edit, { params: { id: 999_999 }, body: { answer: '2', reason: 'x' } })).status).toBe(404);
    expect((await clients.cur.call(itemDiscussionApi.edits, { params: { id: itemId } })).edits).toEqual([]);
  });

  it('keeps who, why and each changed field before and after, oldest first', async () => {
    const question = 'Suppose nothing changed. What is the value shown?';
    const first = await clients.cur.send(itemDiscussionApi.edit, { params: { id: itemId }, body: { question, assumption: 'Suppose nothing changed.', reason: 'clearer wording' } });
    expect(first.status).toBe(200);
    expect(EditItemResponseSchema.parse(first.body).item.question).toBe(question);
    await clients.cur.send(itemDiscussionApi.edit, { params: { id: itemId }, body: { answer: '1.0', reason: 'decimal form' } });
    const { edits } = await clients.ann.call(itemDiscussionApi.edits, { params: { id: itemId } });
    expect(edits.map((e) => ({ who: e.editor.username, why: e.reason, changes: e.changes, status: e.status_at_edit }))).toEqual([
      { who: 'cur', why: 'clearer wording', changes: [{ field: 'question', before: 'Suppose nothing changed. What is the value?', after: question }], status: 'pending' },
      { who: 'cur', why: 'decimal form', changes: [{ field: 'answer', before: '1', after: '1.0' }], status: 'pending' },
    ]);
  });

  it('after acceptance runs the verifier again and stores its new verdict, the item staying accepted', async () => {
    const before = (await clients.cur.call(itemsApi.get, { params: { id: acceptedId } })).item;
    expect(before).toMatchObject({ status: 'accepted', verifier_match: true, answer: '1' });
    // The factual label is 1 too: an answer the assumption claims to change but equals the label.
    expect(before.bias_flags).toContain('unchanged_answer');
    const edited = await clients.cur.call(itemDiscussionApi.edit, { params: { id: acceptedId }, body: { answer: '7', reason: 'reviewer note says 7' } });
    expect(edited.edit.status_at_edit).toBe('accepted');
    const after = (await clients.cur.call(itemsApi.get, { params: { id: acceptedId } })).item;
    expect(after).toMatchObject({ status: 'accepted', answer: '7', verifier_match: false });
    expect(after.verifier.match).toBe(false);
    expect(after.verifier.recomputed_answer).toBe('1');
    expect(after.bias_flags).not.toContain('unchanged_answer');
    // Back to what the program computes: the verdict follows the edit again.
    await clients.cur.send(itemDiscussionApi.edit, { params: { id: acceptedId }, body: { answer: '1', reason: 'the table says 1' } });
    expect((await clients.cur.call(itemsApi.get, { params: { id: acceptedId } })).item.verifier_match).toBe(true);
  });

  it('replaces a reviewer’s corrected answer, which the edit keeps as its before', async () => {
    const db = server.server.ctx.db;
    const corrected = buildItem(db, { qaId: buildQa(db, { chartId: buildChart(db) }), status: 'accepted' });
    // As an accepted review with a corrected answer leaves it (review-service applyFinalAnswer).
    correctAnswer(db, corrected, '3');
    const { edit, item } = await clients.cur.call(itemDiscussionApi.edit, { params: { id: corrected }, body: { answer: '4', reason: 'recounted' } });
    expect(edit.changes).toEqual([{ field: 'answer', before: '3', after: '4' }]);
    expect(item).toMatchObject({ answer: '4', final_answer: null, status: 'accepted' });
  });
});
