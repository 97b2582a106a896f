import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GenerateReportSchema, type Run, RunResponseSchema, runsApi } from '../../shared/api/runs';
import { runCli } from '../support/cli';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
let curator: TestClient;

beforeAll(async () => {
  server = await startTestServer();
  await server.createUser('cora', 'curator', 'curator-pass-1');
  curator = new TestClient(server.url);
  await curator.login('cora', 'curator-pass-1');
});
afterAll(() => server.close());

interface PlannedTask {
  qa_id: number;
  chart_id: number;
  chart_type: string;
}

function plannedTasks(runId: number): PlannedTask[] {
  return server.server.ctx.db
    .prepare(
      // The sample is stratified by the question's chart type; a task over a chart group carries
      // its proposal's type (the member it edits), which may be another member's.
      `SELECT t.qa_id, q.chart_id, c.chart_type FROM run_tasks t JOIN factual_qas q ON q.id = t.qa_id JOIN charts c ON c.id = q.chart_id
       WHERE t.run_id = ? AND t.kind = 'item' ORDER BY t.id`,
    )
    .all(runId) as PlannedTask[];
}

/** Charts per chart type among the QAs a run with only_new_qas may still take. */
function chartsWithOpenQas(): Map<string, number> {
  const rows = server.server.ctx.db
    .prepare(
      `SELECT c.chart_type, COUNT(DISTINCT c.id) AS charts FROM factual_qas q JOIN charts c ON c.id = q.chart_id
       WHERE NOT EXISTS (SELECT 1 FROM hqa_items i WHERE i.qa_id = q.id) GROUP BY c.chart_type`,
    )
    .all() as { chart_type: string; charts: number }[];
  return new Map(rows.map((r) => [r.chart_type, r.charts]));
}

async function runToEnd(config: Record<string, unknown>): Promise<Run> {
  const res = await curator.send(runsApi.create, { body: config });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const { run } = RunResponseSchema.parse(res.body);
  await server.server.executor.start(run.id);
  return (await curator.call(runsApi.get, { params: { id: run.id } })).run;
}

describe('which factual QAs a run takes', () => {
  it('by default spreads a 40-item run over every chart type of the demo split, and over the charts of each type', async () => {
    const open = chartsWithOpenQas();
    // The demo split holds every chart type, few charts of some (scatter, area), many of others.
    expect(open.size).toBeGreaterThanOrEqual(5);
    const run = await runToEnd({ engine: 'offline', stage: 'items', items: 40 });
    expect(run.config.order).toBe('stratified');
    expect(run).toMatchObject({ status: 'done', tasks_total: 40 });
    expect(run.items_created + run.items_declined + run.items_failed).toBe(40);

    const tasks = plannedTasks(run.id);
    expect(tasks).toHaveLength(40);
    expect(new Set(tasks.map((t) => t.chart_type))).toEqual(new Set(open.keys()));
    // Round-robin over types: the first tasks planned (and worked) take one QA of every type.
    expect(new Set(tasks.slice(0, open.size).map((t) => t.chart_type)).size).toBe(open.size);
    for (const [type, charts] of open) {
      const ofType = tasks.filter((t) => t.chart_type === type);
      // Round-robin over a type's charts: no chart twice while another chart of the type has none.
      expect(new Set(ofType.map((t) => t.chart_id)).size, type).toBe(Math.min(ofType.length, charts));
    }
  });

  it('hqa generate --order id takes the lowest-id QAs without items, lowest first, as runs did before', async () => {
    const expected = (
      server.server.ctx.db
        .prepare('SELECT q.id FROM factual_qas q WHERE NOT EXISTS (SELECT 1 FROM hqa_items i WHERE i.qa_id = q.id) ORDER BY q.id LIMIT 40')
        .all() as { id: number }[]
    ).map((r) => r.id);
    const result = await runCli(['generate', '--engine', 'offline', '--stage', 'items', '--items', '40', '--order', 'id', '--json'], { dbPath: server.dbPath });
    expect(result.stderr).toBe('');
    const report = GenerateReportSchema.parse(JSON.parse(result.stdout));
    expect(report.status).toBe('done');
    expect(plannedTasks(report.run_id).map((t) => t.qa_id)).toEqual(expected);
    const { run } = await curator.call(runsApi.get, { params: { id: report.run_id } });
    expect(run.config.order).toBe('id');
  });

  it('names a bad --order and a bad order in the API', async () => {
    const cli = await runCli(['generate', '--engine', 'offline', '--order', 'random', '--json'], { dbPath: server.dbPath });
    expect(cli.status).toBe(1);
    expect(cli.stderr).toMatch(/--order: /);
    const res = await curator.send(runsApi.create, { body: { engine: 'offline', order: 'random' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: { field: 'body.order' } });
  });
});
