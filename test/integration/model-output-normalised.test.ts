import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reverifyChartItems } from '../../server/review/chart-reverify';
import { itemsApi } from '../../shared/api/items';
import { type Run, runsApi } from '../../shared/api/runs';
import type { FakeChatRequest } from '../support/fake-openai';
import { jsonReply, startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai';
import { correctReply, promptLabels } from '../support/fake-hqa-model';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
let fake: FakeOpenAI;
let curator: TestClient;

/** What a model under strict structured output may write: every field of the op filled, numbers where null was meant. */
function itemWithFiller(chat: FakeChatRequest) {
  const item = correctReply(chat);
  // Fields the op does not use: a swap neither factor nor delta, an add (the fake's change over time) no factor.
  return { ...item, edit: item.edit.map((op) => ({ ...op, factor: 2, ...(op.op === 'swap' ? { delta: 0 } : {}) })) };
}

beforeAll(async () => {
  fake = await startFakeOpenAI();
  server = await startTestServer({ config: { openaiApiKey: 'test-key', openaiBaseUrl: fake.url } });
  await server.createUser('cora', 'curator', 'curator-pass-1');
  curator = new TestClient(server.url);
  await curator.login('cora', 'curator-pass-1');
});
afterAll(async () => {
  await server.close();
  await fake.close();
});

async function runItems(config: Record<string, unknown>): Promise<Run> {
  const { run } = await curator.call(runsApi.create, { body: { engine: 'openai', stage: 'items', concurrency: 1, ...config } });
  await server.server.executor.start(run.id);
  return (await curator.call(runsApi.get, { params: { id: run.id } })).run;
}

describe('Stage 2 replies whose edit ops carry fields the op does not use', () => {
  it('make their items, each with an edit_normalised note that re-verification keeps', async () => {
    fake.setDefault((chat) => jsonReply(itemWithFiller(chat)));
    const run = await runItems({ chart_type: 'grouped_bar', items: 3 });

    // Every request made its item (a question no proposal can change sends none, declined by the server).
    expect(run).toMatchObject({ status: 'done', items_failed: 0 });
    expect(run.items_created).toBeGreaterThan(0);
    expect(run.llm_calls).toBe(run.items_created);
    expect(run.items_created + run.items_declined).toBe(3);
    const items = (await curator.call(itemsApi.list, { query: { run_id: run.id } })).items;
    expect(items).toHaveLength(run.items_created);
    for (const summary of items) {
      const { item } = await curator.call(itemsApi.get, { params: { id: summary.id } });
      // A question over a chart group names the chart its op edits.
      const [op] = item.edit as { op: string }[];
      expect(['swap', 'add']).toContain(op?.op);
      expect(item.verifier.match).toBe(true);
      expect(item.verifier.lint).toContainEqual({
        code: 'edit_normalised',
        severity: 'info',
        message: op?.op === 'swap' ? "op 1 (swap): swap does not use factor 2 or delta 0; dropped from the model's reply" : "op 1 (add): add does not use factor 2; dropped from the model's reply",
      });
      // The note is about the reply, not the table: a chart's re-verification cannot recompute it, and keeps it.
      reverifyChartItems(server.server.ctx.db, item.chart_id);
      const again = (await curator.call(itemsApi.get, { params: { id: summary.id } })).item;
      expect(again.verifier.lint.filter((finding) => finding.code === 'edit_normalised')).toHaveLength(1);
    }
  });

  it('still fails a reply whose extra field changes which cells the op touches, after the repair', async () => {
    fake.setDefault((chat) => {
      const item = correctReply(chat);
      const { rows, series } = promptLabels(chat);
      const [row, other] = [rows[0], series[0]];
      const nullOp = { row: null, series: null, value: null, factor: null, delta: null, rows: null, values: null };
      // "remove_row" with a series named: which cells would it change?
      return jsonReply({ ...item, edit: [{ ...nullOp, op: 'remove_row', row, series: other }] });
    });
    const run = await runItems({ chart_type: 'grouped_bar', items: 1 });

    expect(run).toMatchObject({ status: 'done', items_created: 0, items_failed: 1, llm_calls: 2 });
    const detail = await curator.call(runsApi.get, { params: { id: run.id } });
    expect(detail.errors[0]?.error).toBe("schema-invalid after repair: edit.0.series: op 'remove_row' takes no series, so which cells it changes is unclear; set it to null");
  });
});
