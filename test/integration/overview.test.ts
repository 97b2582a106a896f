import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ItemDetailResponseSchema, ItemListResponseSchema, itemsApi } from '../../shared/api/items';
import { overviewApi, OverviewResponseSchema } from '../../shared/api/overview';
import { reviewApi } from '../../shared/api/review';
import { RunConfigSchema, runsApi } from '../../shared/api/runs';
import { TestClient } from '../support/http-client';
import { requeueEveryItem } from '../support/factories';
import { acceptReview, generateItems, rejectReview } from '../support/review-fixtures';
import { connectAs, nextEvent } from '../support/socket-client';
import { startTestServer, type TestServer } from '../support/test-server';
import { settingsApi } from '../../shared/api/settings';

/** GET /api/overview and the "in review" figure: a reviewer's prefetched next item is not a second item in review. */

const ITEMS = 8;

let server: TestServer;
let admin: TestClient;
let curator: TestClient;
let ann: TestClient;
let ben: TestClient;

async function signIn(name: string, role: 'admin' | 'curator' | 'reviewer'): Promise<TestClient> {
  await server.createUser(name, role, `${name}-password-1`);
  const client = new TestClient(server.url);
  await client.login(name, `${name}-password-1`);
  return client;
}

beforeAll(async () => {
  server = await startTestServer();
  await generateItems(server, ITEMS);
  admin = await signIn('root', 'admin');
  curator = await signIn('cora', 'curator');
  ann = await signIn('ann', 'reviewer');
  ben = await signIn('ben', 'reviewer');
});
afterAll(async () => {
  await server.close();
});

const db = () => server.server.ctx.db;
const storedInReview = () => (db().prepare("SELECT COUNT(*) AS n FROM hqa_items WHERE status = 'in_review'").get() as { n: number }).n;

async function overview(client: TestClient = curator) {
  const res = await client.send(overviewApi.get);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return OverviewResponseSchema.parse(res.body);
}

async function next(client: TestClient, exclude: number[] = []): Promise<number> {
  const id = (await client.call(reviewApi.next, { body: { exclude_item_ids: exclude } })).task?.item.id;
  if (id === undefined) throw new Error('the queue gave no item');
  return id;
}

/** The ids the Items list shows under a status filter. */
async function listedIds(status: string): Promise<number[]> {
  const res = await curator.send(itemsApi.list, { query: { status, page_size: 100 } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return ItemListResponseSchema.parse(res.body).items.map((item) => item.id);
}

async function shownStatus(id: number): Promise<string> {
  const res = await curator.send(itemsApi.get, { params: { id } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return ItemDetailResponseSchema.parse(res.body).item.status;
}

async function setK(k: number) {
  expect((await admin.send(settingsApi.update, { body: { reviews_per_item: k, consensus_rule: 'majority' } })).status).toBe(200);
}

describe('GET /api/overview', () => {
  it('counts what the next step depends on: charts and questions imported, runs started, items made', async () => {
    const counted = db().prepare('SELECT (SELECT COUNT(*) FROM charts) AS charts, (SELECT COUNT(*) FROM factual_qas) AS questions, (SELECT COUNT(*) FROM runs) AS runs').get() as object;
    expect((await overview()).setup).toEqual({ ...counted, items: ITEMS });

    // A fresh start without the demo: everything at zero, so the page's next step is to import.
    const empty = await startTestServer({ demo: false });
    try {
      const root = new TestClient(empty.url);
      await root.login('admin', empty.server.adminPassword ?? '');
      const res = await root.send(overviewApi.get);
      expect(OverviewResponseSchema.parse(res.body).setup).toEqual({ charts: 0, questions: 0, runs: 0, items: 0 });
    } finally {
      await empty.close();
    }
  });

  it('is for curators and admins, not reviewers', async () => {
    expect((await ann.send(overviewApi.get)).status).toBe(403);
    expect((await new TestClient(server.url).send(overviewApi.get)).status).toBe(401);
    expect((await admin.send(overviewApi.get)).status).toBe(200);
  });

  it('counts a reviewer holding the item on screen and a prefetched one as one item in review, on every view of the count', async () => {
    await setK(1);
    expect(await overview()).toMatchObject({ queue: { pending: ITEMS, in_review: 0, total: ITEMS }, pass_rate: null, awaiting_adjudication: 0 });

    // The queue bar's per-status figures are the staff's (blind review): a curator's socket and queue.
    const socket = await connectAs(server.url, curator);
    try {
      const current = await next(ann);
      const pushed = nextEvent(socket, 'queue.changed', (p) => (p as { counts: { pending: number } }).counts.pending === ITEMS - 1);
      const prefetched = await next(ann, [current]);
      expect(prefetched).not.toBe(current);
      // Both slots are taken (k = 1): the stored status of both is in_review…
      expect(storedInReview()).toBe(2);
      // …but ann is looking at one of them.
      expect((await overview()).queue).toEqual({ pending: ITEMS - 1, in_review: 1, total: ITEMS });
      const queue = await curator.call(reviewApi.queue);
      expect(queue.counts).toMatchObject({ pending: ITEMS - 1, in_review: 1 });
      expect((await ben.call(reviewApi.queue)).counts).toEqual({});
      expect((await pushed) as { counts: Record<string, number> }).toMatchObject({ counts: { pending: ITEMS - 1, in_review: 1 } });
      // The Items list and the Item page say the same: the prefetched item is still pending.
      expect(await listedIds('in_review')).toEqual([current]);
      expect(await listedIds('pending')).toContain(prefetched);
      expect((await listedIds('pending')).length).toBe(ITEMS - 1);
      expect(await shownStatus(prefetched)).toBe('pending');
      expect(await shownStatus(current)).toBe('in_review');
      const row = (await curator.call(itemsApi.list, { query: { page_size: 100 } })).items.find((item) => item.id === prefetched);
      expect(row?.status).toBe('pending');

      // Ben takes one of his own: two reviewers looking, two in review; ann's prefetch still waits.
      await next(ben);
      expect((await overview()).queue).toMatchObject({ pending: ITEMS - 2, in_review: 2 });

      // Ann decides the item on screen: the prefetched one becomes the one she looks at.
      expect((await ann.send(reviewApi.submit, { params: { id: current }, body: acceptReview() })).status).toBe(201);
      expect(await overview()).toMatchObject({ queue: { pending: ITEMS - 3, in_review: 2, total: ITEMS - 1 }, decided: { accepted: 1, rejected: 0 }, pass_rate: 100 });
      // She prefetches again: still one item in review for her.
      await next(ann, [prefetched]);
      expect(storedInReview()).toBe(3);
      expect((await overview()).queue).toMatchObject({ pending: ITEMS - 3, in_review: 2 });
      // Once on screen, the item she prefetched before is in review on every page.
      expect(await shownStatus(prefetched)).toBe('in_review');
      expect((await listedIds('in_review')).sort((a, b) => a - b)).toHaveLength(2);
      expect(await listedIds('in_review')).toContain(prefetched);
    } finally {
      socket.disconnect();
    }
  });

  it('gives the pass rate over decided items, the items awaiting adjudication and the runs in progress', async () => {
    requeueEveryItem(db());
    await setK(1);
    const accepted = await next(ann);
    expect((await ann.send(reviewApi.submit, { params: { id: accepted }, body: acceptReview() })).status).toBe(201);
    const rejected = await next(ben);
    expect((await ben.send(reviewApi.submit, { params: { id: rejected }, body: rejectReview() })).status).toBe(201);
    const third = await next(ben);
    expect((await ben.send(reviewApi.submit, { params: { id: third }, body: rejectReview() })).status).toBe(201);
    expect(await overview()).toMatchObject({ decided: { accepted: 1, rejected: 2 }, awaiting_adjudication: 0 });
    expect((await overview()).pass_rate).toBeCloseTo(100 / 3, 6);

    // Two reviewers disagree under k = 2: the item waits for a curator.
    await setK(2);
    const disputed = await next(ann);
    expect(await next(ben)).toBe(disputed);
    expect((await ann.send(reviewApi.submit, { params: { id: disputed }, body: acceptReview() })).status).toBe(201);
    expect((await ben.send(reviewApi.submit, { params: { id: disputed }, body: rejectReview() })).status).toBe(201);
    expect(await overview()).toMatchObject({ awaiting_adjudication: 1, decided: { accepted: 1, rejected: 2 }, queue: { total: ITEMS - 4 } });

    // The items' run is done; a run created and not started is queued: in progress.
    expect((await overview()).runs_in_progress).toBe(0);
    const run = server.server.executor.createRun(RunConfigSchema.parse({ engine: 'offline', stage: 'items', items: 2 }), null);
    expect(await overview()).toMatchObject({ runs_in_progress: 1, runs_paused: 0 });
    expect((await curator.send(runsApi.cancel, { params: { id: run.id } })).status).toBe(200);
    expect((await overview()).runs_in_progress).toBe(0);
  });
});
