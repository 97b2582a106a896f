import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chartTypesApi, TriageResponseSchema, UndoTypeResponseSchema } from '../../shared/api/chart-types';
import { ChartDetailResponseSchema, chartsApi, UpdateChartResponseSchema } from '../../shared/api/charts';
import { fillPath } from '../../shared/api/endpoint';
import { ErrorBodySchema } from '../../shared/errors';
import { ServerEventSchemas } from '../../shared/events';
import { importSplit } from '../../server/import/import-split';
import { CHARTQA_EXTRA, CHARTQA_SAMPLE } from '../support/paths';
import { SignedInUsers, type SignedInUser } from '../support/signed-in-users';
import { connectAs, nextEvent } from '../support/socket-client';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * The chart-type triage over the API: the real ChartQA extra split (20 PNGs, questions that name
 * no marks), a copy of three of its charts whose questions do name their bars, and the sample
 * split (no PNGs).
 */

const dir = mkdtempSync(join(tmpdir(), 'hqa-chart-type-triage-'));
let server: TestServer;
let curator: SignedInUser;
let other: SignedInUser;
let reviewer: SignedInUser;

/** Three real charts with their PNGs, asked about in words a careful reader takes as evidence. */
function wordedSplit(): string {
  const split = join(dir, 'worded');
  mkdirSync(join(split, 'tables'), { recursive: true });
  mkdirSync(join(split, 'png'), { recursive: true });
  for (const stem of ['two_col_3119', 'two_col_1739', 'two_col_41347']) {
    copyFileSync(join(CHARTQA_EXTRA, 'tables', `${stem}.csv`), join(split, 'tables', `${stem}.csv`));
    copyFileSync(join(CHARTQA_EXTRA, 'png', `${stem}.png`), join(split, 'png', `${stem}.png`));
  }
  const questions = [
    // Years as rows: the table alone says line; the questions count the bars from the left.
    { imgname: 'two_col_3119.png', query: 'Is the leftmost bar lower than the rightmost bar?', label: 'Yes' },
    // A ranking: bars counted from the top run sideways.
    { imgname: 'two_col_1739.png', query: 'What is the value of the third bar from the top?', label: '300' },
    // Bars, but nothing says which way they run: a kind, not a type.
    { imgname: 'two_col_41347.png', query: 'How many bars are above 10?', label: '2' },
  ];
  writeFileSync(join(split, 'worded_human.json'), JSON.stringify(questions));
  return split;
}

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  const { db } = server.server.ctx;
  importSplit(db, CHARTQA_EXTRA);
  importSplit(db, CHARTQA_SAMPLE);
  importSplit(db, wordedSplit());
  const users = new SignedInUsers(server);
  curator = await users.create('curator');
  other = await users.create('curator');
  reviewer = await users.create('reviewer');
}, 60_000);
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const chartId = (split: string, imgname: string) =>
  (server.server.ctx.db.prepare('SELECT id FROM charts WHERE split = ? AND imgname = ?').get(split, imgname) as { id: number }).id;
const triage = async (split?: string) => TriageResponseSchema.parse((await curator.client.get(`${chartTypesApi.triage.path}${split ? `?split=${split}` : ''}`)).body);
const chart = async (id: number) => ChartDetailResponseSchema.parse((await curator.client.get(fillPath(chartsApi.get.path, { id }))).body).chart;
const auditOf = (id: number) =>
  (server.server.ctx.db.prepare("SELECT action, actor_id, details FROM audit_log WHERE target_type = 'chart' AND target_id = ? ORDER BY id").all(String(id)) as { action: string; actor_id: number; details: string }[]).map(
    (row) => ({ action: row.action, actor_id: row.actor_id, details: JSON.parse(row.details) as unknown }),
  );

describe('chart types at import', () => {
  it('confirms a type the questions’ words decide; a PNG chart whose type only its table suggests is unconfirmed; a chart without an image is drawn in its type', async () => {
    expect(await chart(chartId('worded', 'two_col_3119.png'))).toMatchObject({ chart_type: 'vertical_bar', type_source: 'inferred', type_evidence: 'questions', type_confirmed: true });
    expect(await chart(chartId('worded', 'two_col_1739.png'))).toMatchObject({ chart_type: 'horizontal_bar', type_evidence: 'questions', type_confirmed: true });
    expect(await chart(chartId('worded', 'two_col_41347.png'))).toMatchObject({ chart_type: 'vertical_bar', type_evidence: null, type_confirmed: false });
    // The same chart in the extra split, whose one question names no marks: the table's guess, unconfirmed.
    expect(await chart(chartId('train', 'two_col_3119.png'))).toMatchObject({ chart_type: 'line', type_evidence: null, type_confirmed: false });
    expect(await chart(chartId('test', 'two_col_434.png'))).toMatchObject({ has_image: false, type_evidence: null, type_confirmed: true });

    const worded = await triage('worded');
    expect(worded.charts.map((c) => c.imgname)).toEqual(['two_col_41347.png']);
    expect(worded.counts).toEqual({ unconfirmed: 1, annotation: 0, questions: 2, vision: 0, curator: 0 });
    const all = await triage();
    expect(all.counts.unconfirmed).toBe(21);
    // Lowest id first, each with what triage needs to show it, and no vision failure yet.
    expect(all.charts[0]).toEqual({ id: chartId('train', 'multi_col_101207.png'), split: 'train', imgname: 'multi_col_101207.png', title: null, chart_type: 'line', rows: 12, series: 6, qa_count: 1, vision_failure: null });
    expect((await reviewer.client.get(chartTypesApi.triage.path)).status).toBe(403);
  });
});

describe('a curator’s type decisions', () => {
  it('confirm the type, are audited with before and after, reach other curators, and undo puts back what was there', async () => {
    const line = chartId('train', 'two_col_82870.png');
    const bars = chartId('train', 'two_col_1124.png');
    const socket = await connectAs(server.url, other.client);
    try {
      const pushed = nextEvent(socket, 'chart.updated', (p) => ServerEventSchemas['chart.updated'].parse(p).chart.id === line);
      const decided = await curator.client.patch(fillPath(chartsApi.update.path, { id: line }), { chart_type: 'vertical_bar' });
      expect(decided.status).toBe(200);
      expect(UpdateChartResponseSchema.parse(decided.body).chart).toMatchObject({ chart_type: 'vertical_bar', type_source: 'curator', type_evidence: null, type_confirmed: true });
      expect(ServerEventSchemas['chart.updated'].parse(await pushed).chart).toMatchObject({ id: line, chart_type: 'vertical_bar', type_confirmed: true });
    } finally {
      socket.disconnect();
    }
    // Enter on the triage: the suggested type confirmed as it is.
    await curator.client.patch(fillPath(chartsApi.update.path, { id: bars }), { chart_type: 'horizontal_bar' });
    const after = await triage('train');
    expect(after.counts).toEqual({ unconfirmed: 18, annotation: 0, questions: 0, vision: 0, curator: 2 });
    expect(after.charts.map((c) => c.id)).not.toContain(line);

    const before = { chart_type: 'line', type_source: 'inferred', type_evidence: null };
    const to = { chart_type: 'vertical_bar', type_source: 'curator', type_evidence: null };
    expect(auditOf(line)).toEqual([{ action: 'chart.type_changed', actor_id: curator.id, details: { chart: 'train/two_col_82870.png', from: before, to } }]);

    expect((await reviewer.client.post(fillPath(chartTypesApi.undo.path, { id: line }))).status).toBe(403);
    const undone = await other.client.post(fillPath(chartTypesApi.undo.path, { id: line }));
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    expect(UndoTypeResponseSchema.parse(undone.body).chart).toMatchObject({ chart_type: 'line', type_source: 'inferred', type_evidence: null, type_confirmed: false });
    expect(auditOf(line)[1]).toMatchObject({ action: 'chart.type_change_undone', actor_id: other.id, details: { from: to, to: before } });
    expect((await triage('train')).counts).toMatchObject({ unconfirmed: 19, curator: 1 });

    // Undone already: nothing left to undo; a chart no one decided has nothing either.
    const twice = await curator.client.post(fillPath(chartTypesApi.undo.path, { id: line }));
    expect(twice.status).toBe(409);
    expect(ErrorBodySchema.parse(twice.body).error.message).toMatch(/no longer what the latest decision set/);
    const never = await curator.client.post(fillPath(chartTypesApi.undo.path, { id: chartId('train', 'two_col_417.png') }));
    expect(never.status).toBe(409);
    expect(ErrorBodySchema.parse(never.body).error.message).toMatch(/no type decision to undo/);

    // Two decisions on one chart: an undo takes back the latest, to the type the earlier one set.
    await curator.client.patch(fillPath(chartsApi.update.path, { id: bars }), { chart_type: 'grouped_bar' });
    expect(UndoTypeResponseSchema.parse((await curator.client.post(fillPath(chartTypesApi.undo.path, { id: bars }))).body).chart).toMatchObject({ chart_type: 'horizontal_bar', type_source: 'curator' });
  });

  it('keep a curator’s type through a re-import of the same split', async () => {
    const id = chartId('train', 'two_col_417.png');
    await curator.client.patch(fillPath(chartsApi.update.path, { id }), { chart_type: 'vertical_bar' });
    importSplit(server.server.ctx.db, CHARTQA_EXTRA);
    expect(await chart(id)).toMatchObject({ chart_type: 'vertical_bar', type_source: 'curator', type_confirmed: true });
  });
});
