import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAndMigrate } from '../../db/database';
import { chartsApi } from '../../shared/api/charts';
import { GenerateReportSchema, type Run, runsApi } from '../../shared/api/runs';
import { getChartSummary } from '../../server/charts/chart-queries';
import { eligibleQaIds, getRun } from '../../server/generation/run-queries';
import { importSplit } from '../../server/import/import-split';
import { runCli } from '../support/cli';
import { buildChart, buildChartGroup, buildQa } from '../support/factories';
import { CHARTQA_EXTRA, CHARTQA_SAMPLE } from '../support/paths';
import { SignedInUsers, type SignedInUser } from '../support/signed-in-users';
import { startTestServer, type TestServer } from '../support/test-server';
import { waitFor } from '../support/wait-for';

/**
 * `confirmed_types_only`: a run over the real extra split (20 PNGs whose types only their tables
 * suggest) and the sample split (no PNGs: drawn in their types) takes the questions of charts
 * whose type is confirmed, and leaves the others for the triage.
 */

let server: TestServer;
let curator: SignedInUser;

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  importSplit(server.server.ctx.db, CHARTQA_EXTRA);
  importSplit(server.server.ctx.db, CHARTQA_SAMPLE);
  curator = await new SignedInUsers(server).create('curator');
}, 60_000);
afterAll(() => server.close());

function plannedCharts(runId: number): number[] {
  const rows = server.server.ctx.db.prepare("SELECT q.chart_id FROM run_tasks t JOIN factual_qas q ON q.id = t.qa_id WHERE t.run_id = ? AND t.kind = 'item'").all(runId) as { chart_id: number }[];
  return [...new Set(rows.map((row) => row.chart_id))].sort((a, b) => a - b);
}

/**
 * A run as planned: what it takes is the item tasks it plans, so once they are planned the run is
 * cancelled rather than worked to its end (each run's hundred-odd offline items were most of the
 * file's time, and the items prove nothing here).
 */
async function planRun(config: Record<string, unknown>): Promise<Run> {
  // Its items in-process: the few started before the cancel end in milliseconds, where the first
  // on a thread would wait for the thread to load the rules (seconds).
  const threads = process.env.HQA_OFFLINE_THREADS;
  process.env.HQA_OFFLINE_THREADS = '0';
  try {
    return await plannedRun(config);
  } finally {
    if (threads === undefined) delete process.env.HQA_OFFLINE_THREADS;
    else process.env.HQA_OFFLINE_THREADS = threads;
  }
}

async function plannedRun(config: Record<string, unknown>): Promise<Run> {
  const { run } = await curator.client.call(runsApi.create, { body: { engine: 'offline', stage: 'items', items: 1000, order: 'id', only_new_qas: false, ...config } });
  await waitFor(`run ${run.id} to plan its items`, () => getRun(server.server.ctx.db, run.id)?.items_planned === true);
  // A run that got to its end meanwhile answers 409: it is planned all the same.
  await curator.client.send(runsApi.cancel, { params: { id: run.id } });
  await server.server.executor.start(run.id);
  return (await curator.client.call(runsApi.get, { params: { id: run.id } })).run;
}

describe('a run with confirmed_types_only', () => {
  it('takes the questions of charts whose type is confirmed, and those of charts a curator decided since', async () => {
    const { db } = server.server.ctx;
    const charts = (db.prepare('SELECT id FROM charts ORDER BY id').all() as { id: number }[]).map((row) => row.id);
    const confirmed = () => charts.filter((id) => getChartSummary(db, id)?.type_confirmed);
    // The sample's 30 charts have no image; every one of the extra split's 20 is unconfirmed.
    expect(confirmed()).toHaveLength(30);

    const all = await planRun({});
    expect(all.config.confirmed_types_only).toBe(false);
    expect(plannedCharts(all.id)).toEqual(charts);

    const onlyConfirmed = await planRun({ confirmed_types_only: true });
    expect(onlyConfirmed.config.confirmed_types_only).toBe(true);
    expect(plannedCharts(onlyConfirmed.id)).toEqual(confirmed());

    // A curator confirms two of the extra split's types (one as suggested): their questions join the next run.
    const [first, second] = charts.filter((id) => !getChartSummary(db, id)?.type_confirmed) as [number, number];
    await curator.client.send(chartsApi.update, { params: { id: first }, body: { chart_type: 'line' } });
    await curator.client.send(chartsApi.update, { params: { id: second }, body: { chart_type: 'stacked_bar' } });
    const after = await planRun({ confirmed_types_only: true });
    expect(plannedCharts(after.id)).toEqual(confirmed());
    expect(plannedCharts(after.id)).toEqual(expect.arrayContaining([first, second]));
    expect(plannedCharts(after.id)).toHaveLength(32);
  });

  it('takes a question over a chart group only when every member’s type is confirmed', () => {
    const db = openAndMigrate(':memory:');
    const png = readFileSync(join(CHARTQA_EXTRA, 'png', 'two_col_3119.png'));
    const drawn = buildChart(db);
    const pictured = buildChart(db, { image: png });
    const decided = buildChart(db, { image: png, typeEvidence: 'questions' });
    const unconfirmedGroup = buildChartGroup(db, { chartIds: [drawn, pictured] });
    const confirmedGroup = buildChartGroup(db, { chartIds: [drawn, decided] });
    const overUnconfirmed = buildQa(db, { chartId: drawn, groupId: unconfirmedGroup });
    const overConfirmed = buildQa(db, { chartId: drawn, groupId: confirmedGroup });
    const onPictured = buildQa(db, { chartId: pictured });
    const onDecided = buildQa(db, { chartId: decided });
    const ids = (confirmedTypesOnly: boolean) => eligibleQaIds(db, { onlyNew: false, confirmedTypesOnly }).map((qa) => qa.id).sort((a, b) => a - b);
    expect(ids(false)).toEqual([overUnconfirmed, overConfirmed, onPictured, onDecided]);
    expect(ids(true)).toEqual([overConfirmed, onDecided]);
    db.close();
  });
});

describe('hqa generate --confirmed-types-only', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hqa-cli-confirmed-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('leaves out the questions of charts whose type is unconfirmed', async () => {
    const dbPath = join(dir, 'hqa.sqlite');
    expect((await runCli(['import', CHARTQA_EXTRA, '--json'], { dbPath })).status).toBe(0);
    const args = ['generate', '--engine', 'offline', '--stage', 'items', '--items', '5', '--json'];
    // The rules in-process: a thread would load them again for each command (seconds), to write five items.
    const env = { HQA_OFFLINE_THREADS: '0' };
    const limited = await runCli([...args, '--confirmed-types-only'], { dbPath, env });
    expect(limited.stderr).toBe('');
    // Every chart of the split is unconfirmed: nothing to take.
    expect(GenerateReportSchema.parse(JSON.parse(limited.stdout))).toMatchObject({ status: 'done', items_created: 0, items_failed: 0 });
    const unlimited = GenerateReportSchema.parse(JSON.parse((await runCli(args, { dbPath, env })).stdout));
    expect(unlimited.items_created + unlimited.items_declined + unlimited.items_failed).toBe(5);
    const db = openAndMigrate(dbPath);
    try {
      const configs = (db.prepare('SELECT config FROM runs ORDER BY id').all() as { config: string }[]).map((row) => JSON.parse(row.config) as { confirmed_types_only: boolean });
      expect(configs.map((config) => config.confirmed_types_only)).toEqual([true, false]);
    } finally {
      db.close();
    }
  }, 120_000);
});
