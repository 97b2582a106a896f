import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evalApi, type EvalRun } from '../../shared/api/evaluations';
import { listAuditEntries } from '../../server/audit/audit-queries';
import { runCli } from '../support/cli';
import { buildChart, buildItem, buildQa } from '../support/factories';
import { startFakeOpenAI, textReply, type FakeOpenAI } from '../support/fake-openai';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * `hqa eval-run` is the Evaluation page's run in the CLI's process: the same job kind, the run
 * stored, listed on the page with the figures the page shows, audited as the CLI's.
 */
let server: TestServer;
let fake: FakeOpenAI;
let cora: TestClient;

beforeAll(async () => {
  fake = await startFakeOpenAI({ defaultHandler: () => textReply('2') });
  server = await startTestServer({ demo: false });
  const { db } = server.server.ctx;
  // Three accepted items whose hypothetical answer (2, 2, 5) is not their factual label (1): the
  // factual baseline is right on every original question and on no hypothetical one.
  for (const answer of ['2', '2', '5']) {
    const qaId = buildQa(db, { chartId: buildChart(db), label: '1' });
    buildItem(db, { qaId, status: 'accepted', draft: { answer, question: `Suppose it changed (${answer}). What is the value?` } });
  }
  await server.createUser('cora', 'curator', 'cora-password-1');
  cora = new TestClient(server.url);
  await cora.login('cora', 'cora-password-1');
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

describe('hqa eval-run', () => {
  it('runs the factual baseline over the accepted items under several conditions, as the page lists it', async () => {
    const result = await runCli(['eval-run', '--engine', 'factual-baseline', '--conditions', 'hqa,original', '--json'], { dbPath: server.dbPath });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const { run } = JSON.parse(result.stdout) as { run: EvalRun };
    expect(run).toMatchObject({ engine: 'factual-baseline', status: 'done', items_total: 6, items_answered: 6, created_by: null });
    expect(run.conditions.map((c) => [c.condition, c.score.relaxed_accuracy])).toEqual([
      ['hqa', 0],
      ['original', 100],
    ]);
    const listed = (await cora.call(evalApi.list)).runs.find((r) => r.id === run.id);
    expect(listed).toEqual(run);
    expect(listAuditEntries(server.server.ctx.db, { action: 'eval.started', target_type: 'eval_run', target_id: String(run.id) }, 5)).toMatchObject([
      { actor_id: null, details: { engine: 'factual-baseline', conditions: ['hqa', 'original'], questions: 6 } },
    ]);
  });

  it('asks the evaluation model with the run’s questions, and prints each condition’s accuracy and the gap', async () => {
    const before = fake.requests.length;
    const env = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url };
    const result = await runCli(['eval-run', '--model', 'vision-test', '--conditions', 'hqa,no_image', '--concurrency', '2'], { dbPath: server.dbPath, env });
    expect(result.status).toBe(0);
    expect(fake.requests.length - before).toBe(6);
    // "2" is the hypothetical answer of two of the three items, under both conditions.
    expect(result.stdout).toMatch(/^evaluation run \d+ done: vision-test, 6 answered, 0 failed, 0 skipped/);
    expect(result.stdout).toContain('  hqa: 66.7% relaxed accuracy over 3 questions\n');
    expect(result.stdout).toContain('  no_image: 66.7% relaxed accuracy over 3 questions\n');
    expect(result.stdout).toContain('  Memory (no image vs hypothetical): 0.0 points\n');
    expect(result.stderr).toMatch(/evaluation run \d+: 6 of 6 questions\n$/);
  });

  it('names the field of a bad option, and refuses the openai engine without a key', async () => {
    const bad = await runCli(['eval-run', '--engine', 'factual-baseline', '--conditions', 'hqa,sideways'], { dbPath: server.dbPath });
    expect(bad).toMatchObject({ status: 1, stdout: '' });
    expect(bad.stderr).toMatch(/^error: --conditions: /);
    const keyless = await runCli(['eval-run', '--model', 'vision-test'], { dbPath: server.dbPath });
    expect(keyless.status).toBe(1);
    expect(keyless.stderr).toMatch(/^error: --engine: engine openai needs OPENAI_API_KEY/);
  });
});
