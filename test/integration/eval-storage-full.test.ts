import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointUrl } from '../../shared/api/endpoint';
import { evalApi, EvalRunDetailResponseSchema, EvalRunResponseSchema, type EvalRun } from '../../shared/api/evaluations';
import { getEvalRun } from '../../server/eval/eval-queries';
import { buildStoredItem } from '../support/factories';
import { fillDatabase } from '../support/fill-database';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Issue 34 point 3 for evaluation runs, as run-storage-full.test.ts is for generation runs: a
 * full disk never kills work. The file is filled to its limit (free pages used up) and then
 * allowed a few pages more, so a factual-baseline run stores some answers and then meets
 * SQLITE_FULL on the server's own connection, as a full disk would. The run pauses with reason
 * `storage_unavailable`, the server keeps answering, a server start leaves it paused, and once
 * there is room a resume through the HTTP route finishes it with every question answered once.
 */

/** Accepted items: enough that their answers need new pages. */
const ITEMS = 400;
/** Pages the full file may still grow by: a run's first answers fit, the rest do not. */
const SLACK_PAGES = 2;
const ROOMY = 1_073_741_823;

let server: TestServer;
let cora: TestClient;
const db = () => server.server.ctx.db;

beforeAll(async () => {
  server = await startTestServer();
  await server.createUser('cora', 'curator', 'curator-pass-1');
  cora = new TestClient(server.url);
  await cora.login('cora', 'curator-pass-1');
  const qas = db().prepare('SELECT id, chart_id FROM factual_qas ORDER BY id').all() as { id: number; chart_id: number }[];
  db().transaction(() => {
    for (let i = 0; i < ITEMS; i++) {
      const qa = qas[i % qas.length];
      if (!qa) throw new Error('the demo split has no factual QAs');
      buildStoredItem(db(), { qaId: qa.id, chartId: qa.chart_id, question: `Suppose x${i}. Q?` });
    }
  })();
});
afterAll(async () => {
  await server?.close();
});

/** The file filled to its limit, then allowed `SLACK_PAGES` more. */
function fillDisk(): void {
  fillDatabase(db(), SLACK_PAGES);
}

function freeDisk(): void {
  db().pragma(`max_page_count = ${ROOMY}`);
  db().exec('DROP TABLE disk_filler');
}

/** A factual-baseline run over every accepted item, started on a full disk and left as it stopped. */
async function runOnFullDisk(): Promise<EvalRun> {
  const { evalExecutor } = server.server;
  const created = evalExecutor.createRun({ engine: 'factual-baseline', mode: 'hqa', concurrency: 4 }, null);
  expect(created.items_total).toBe(ITEMS);
  fillDisk();
  try {
    await evalExecutor.start(created.id);
    return EvalRunDetailResponseSchema.parse((await cora.get(endpointUrl(evalApi.get, { params: { id: created.id } }))).body).run;
  } catch (error) {
    freeDisk();
    throw error;
  }
}

const resultCounts = (runId: number) =>
  db().prepare('SELECT status, COUNT(*) AS n FROM eval_results WHERE run_id = ? GROUP BY status ORDER BY status').all(runId) as { status: string; n: number }[];

describe('an evaluation run meeting a full disk', () => {
  it('pauses for storage, leaves the server up, stays paused over a start, and finishes when resumed with room again, each question answered once', async () => {
    const { evalExecutor } = server.server;
    const paused = await runOnFullDisk();
    expect(paused.status).toBe('paused');
    expect(paused.error).toMatch(/^storage_unavailable: /);
    expect(paused.finished_at).toBeNull();
    // Some answers were stored before the disk filled; none of the rest was given up on.
    expect(paused.items_answered).toBeGreaterThan(0);
    expect(paused.items_answered).toBeLessThan(ITEMS);
    expect(paused.items_failed).toBe(0);
    const answeredBefore = db().prepare("SELECT item_id, prediction, answered_at FROM eval_results WHERE run_id = ? AND status = 'answered' ORDER BY item_id").all(paused.id);

    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    // A server start takes up runs left running by a dead process, never a paused one.
    expect(evalExecutor.resumeOrphans()).toEqual([]);
    expect(getEvalRun(db(), paused.id)?.status).toBe('paused');

    freeDisk();
    const resumedRes = await cora.post(endpointUrl(evalApi.resume, { params: { id: paused.id } }));
    expect(resumedRes.status, JSON.stringify(resumedRes.body)).toBe(200);
    const resumed = EvalRunResponseSchema.parse(resumedRes.body).run;
    expect(['queued', 'running', 'done']).toContain(resumed.status);
    expect(resumed.error).toBeNull();
    // Joins the resumed run (or finds it done).
    await evalExecutor.start(paused.id);

    const done = EvalRunDetailResponseSchema.parse((await cora.get(endpointUrl(evalApi.get, { params: { id: paused.id } }))).body).run;
    expect(done).toMatchObject({ status: 'done', error: null, items_total: ITEMS, items_answered: ITEMS, items_failed: 0 });
    expect(resultCounts(paused.id)).toEqual([{ status: 'answered', n: ITEMS }]);
    // One row per accepted item, and the answers stored before the pause were not asked again.
    const perItem = db().prepare('SELECT COUNT(DISTINCT item_id) AS items, COUNT(*) AS rows FROM eval_results WHERE run_id = ?').get(paused.id);
    expect(perItem).toEqual({ items: ITEMS, rows: ITEMS });
    const placeholders = answeredBefore.map(() => '?').join(',');
    const keptAnswers = db()
      .prepare(`SELECT item_id, prediction, answered_at FROM eval_results WHERE run_id = ? AND item_id IN (${placeholders}) ORDER BY item_id`)
      .all(paused.id, ...answeredBefore.map((row) => (row as { item_id: number }).item_id));
    expect(keptAnswers).toEqual(answeredBefore);
    // Claimed once, or twice for a question a worker held when the disk filled; never more.
    const attempts = db().prepare('SELECT MAX(attempts) AS most FROM eval_results WHERE run_id = ?').get(paused.id) as { most: number };
    expect(attempts.most).toBeLessThanOrEqual(2);
    const audit = db().prepare("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'eval.resumed' AND target_id = ?").get(String(paused.id)) as { n: number };
    expect(audit.n).toBe(1);
    // Resuming a run that is not paused is a conflict.
    expect((await cora.post(endpointUrl(evalApi.resume, { params: { id: paused.id } }))).status).toBe(409);
  }, 60_000);

  it('a paused run can be cancelled: the questions it never asked count as missing', async () => {
    const paused = await runOnFullDisk();
    expect(paused.status).toBe('paused');
    freeDisk();
    const res = await cora.post(endpointUrl(evalApi.cancel, { params: { id: paused.id } }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const cancelled = EvalRunResponseSchema.parse(res.body).run;
    expect(cancelled).toMatchObject({ status: 'cancelled', items_answered: paused.items_answered, items_failed: ITEMS - paused.items_answered });
    expect((await cora.post(endpointUrl(evalApi.resume, { params: { id: paused.id } }))).status).toBe(409);
  }, 60_000);
});
