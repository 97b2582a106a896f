import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddGroupQuestionResponseSchema, chartGroupsApi } from '../../shared/api/chart-groups';
import { ServerEventSchemas } from '../../shared/events';
import { tableFromCells } from '../../shared/table/model';
import { buildChart } from '../support/factories';
import { TestClient } from '../support/http-client';
import { connectAs, nextEvent, recordEvents, type TestSocket } from '../support/socket-client';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Every chart-group write tells other clients (`chart_group.changed`), after it committed: a
 * reviewer's open socket hears each create, rename, reorder, question and delete, with the
 * group's charts in order; a refused or empty write says nothing.
 */

let server: TestServer;
let curator: TestClient;
let reviewer: TestClient;
let watcher: TestSocket;
const charts: number[] = [];
/** The nth chart made for these tests (0, which no chart has, when there is none). */
const chartAt = (n: number) => charts[n] ?? 0;

const SALES = tableFromCells(['Year', 'Sales'], [['2019', '10'], ['2020', '12']]);

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  await server.createUser('cora', 'curator', 'curator-pass-1');
  await server.createUser('rex', 'reviewer', 'reviewer-pass-1');
  curator = new TestClient(server.url);
  reviewer = new TestClient(server.url);
  await curator.login('cora', 'curator-pass-1');
  await reviewer.login('rex', 'reviewer-pass-1');
  const db = server.server.ctx.db;
  charts.push(
    buildChart(db, { split: 'ev', imgname: 'one.png', table: SALES }),
    buildChart(db, { split: 'ev', imgname: 'two.png', table: SALES }),
    buildChart(db, { split: 'ev', imgname: 'three.png', table: SALES }),
  );
  // Another user's socket: the events are for everyone who may read groups, not only the writer.
  watcher = await connectAs(server.url, reviewer);
});
afterAll(async () => {
  watcher.disconnect();
  await server.close();
});

const parse = (payload: unknown) => ServerEventSchemas['chart_group.changed'].parse(payload);

/** The next `chart_group.changed` about the group, parsed with its schema. */
async function changeOf(groupId: number) {
  return parse(await nextEvent(watcher, 'chart_group.changed', (p) => parse(p).group_id === groupId));
}

/** A curator's new group, once the watcher heard of its creation (listening from before the request: the event may beat the answer). */
async function createdGroup(name: string, chartIds: number[]) {
  const heard = recordEvents(watcher, 'chart_group.changed');
  const { group } = await curator.call(chartGroupsApi.create, { body: { name, chart_ids: chartIds } });
  await expect.poll(() => heard.map(parse).some((e) => e.group_id === group.id && e.change === 'created')).toBe(true);
  return group;
}

describe('chart_group.changed', () => {
  it('is published when a group is created, with its charts in the order given, once it can be read', async () => {
    // The id is not known until the answer, which the event may beat: any creation (this test makes the only one).
    const heard = nextEvent(watcher, 'chart_group.changed', (p) => parse(p).change === 'created');
    const id = (await curator.call(chartGroupsApi.create, { body: { name: 'Pair', chart_ids: [chartAt(1), chartAt(0)] } })).group.id;
    expect(parse(await heard)).toEqual({ group_id: id, change: 'created', chart_ids: [charts[1], charts[0]] });
    // What a client does on hearing it: refetch, and find the group.
    expect((await reviewer.send(chartGroupsApi.get, { params: { id } })).status).toBe(200);
  });

  it('is published on a rename and on a reorder (the new order), and not for a request that changed nothing', async () => {
    const group = await createdGroup('To edit', [charts[0], charts[2]] as number[]);
    const seen = recordEvents(watcher, 'chart_group.changed');

    const renamed = changeOf(group.id);
    expect((await curator.send(chartGroupsApi.update, { params: { id: group.id }, body: { name: 'Edited' } })).status).toBe(200);
    expect(await renamed).toEqual({ group_id: group.id, change: 'edited', chart_ids: [charts[0], charts[2]] });

    // Same name and order: nothing changed, nothing told. The reorder after it is the next event heard.
    expect((await curator.send(chartGroupsApi.update, { params: { id: group.id }, body: { name: 'Edited', chart_ids: [charts[0], charts[2]] } })).status).toBe(200);
    const reordered = changeOf(group.id);
    expect((await curator.send(chartGroupsApi.update, { params: { id: group.id }, body: { chart_ids: [charts[2], charts[0]] } })).status).toBe(200);
    expect(await reordered).toEqual({ group_id: group.id, change: 'edited', chart_ids: [charts[2], charts[0]] });
    expect(seen).toHaveLength(2);
  });

  it('is published when a question is added (the first chart, which stores it, leads chart_ids), and not for a refused one', async () => {
    const group = await createdGroup('Asked', [charts[2], charts[1]] as number[]);
    const seen = recordEvents(watcher, 'chart_group.changed');
    const asked = changeOf(group.id);
    const res = await curator.send(chartGroupsApi.addQuestion, { params: { id: group.id }, body: { query: 'What is the total of Sales in 2020 across both charts?', label: '24' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await asked).toEqual({ group_id: group.id, change: 'question_added', chart_ids: [charts[2], charts[1]] });
    const detail = await reviewer.call(chartGroupsApi.get, { params: { id: group.id } });
    expect(detail.questions.map((q) => q.id)).toEqual([AddGroupQuestionResponseSchema.parse(res.body).question.id]);

    // The same question again is refused (409): no event. The rename after it is the next one heard.
    expect((await curator.send(chartGroupsApi.addQuestion, { params: { id: group.id }, body: { query: 'What is the total of Sales in 2020 across both charts?', label: '24' } })).status).toBe(409);
    const renamed = changeOf(group.id);
    expect((await curator.send(chartGroupsApi.update, { params: { id: group.id }, body: { name: 'Asked twice' } })).status).toBe(200);
    expect((await renamed).change).toBe('edited');
    expect(seen.map((p) => parse(p).change)).toEqual(['question_added', 'edited']);
  });

  it('is published when a group is deleted, naming the charts it had, and not when a delete is refused', async () => {
    const group = await createdGroup('Doomed', [charts[0], charts[1], charts[2]] as number[]);
    const seen = recordEvents(watcher, 'chart_group.changed');
    expect((await curator.send(chartGroupsApi.remove, { params: { id: 999999 } })).status).toBe(404);
    const deleted = changeOf(group.id);
    expect((await curator.send(chartGroupsApi.remove, { params: { id: group.id } })).status).toBe(200);
    expect(await deleted).toEqual({ group_id: group.id, change: 'deleted', chart_ids: [charts[0], charts[1], charts[2]] });
    expect((await reviewer.send(chartGroupsApi.get, { params: { id: group.id } })).status).toBe(404);
    expect(seen).toHaveLength(1);
  });
});
