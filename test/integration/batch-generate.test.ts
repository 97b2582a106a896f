import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openAndMigrate } from '../../db/database';
import { GenerateReportSchema, RunResponseSchema, runsApi } from '../../shared/api/runs';
import { SettingsSchema } from '../../shared/settings';
import { getRun, listRunErrors } from '../../server/generation/run-queries';
import { callCost } from '../../server/llm/cost';
import { listLlmCalls } from '../../server/llm/llm-call-queries';
import { correctReply, hqaModel } from '../support/fake-hqa-model';
import { errorReply, startFakeOpenAI, textReply, type FakeChatRequest, type FakeOpenAI } from '../support/fake-openai';
import { runCli } from '../support/cli';
import { setJobOwner } from '../support/factories';
import { CHARTQA_SAMPLE } from '../support/paths';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';
import { importFolder } from '../../server/import/import-folder';
import { MULTICHARTQA_DATA } from '../support/multichartqa-sample';

const dir = mkdtempSync(join(tmpdir(), 'hqa-batch-gen-'));
const dbPath = join(dir, 'workbench.sqlite');
let fake: FakeOpenAI;
/**
 * The offline rules (Stage 2's pairing of a question with a proposal) in-process: each CLI command
 * ends its thread pools, so on a thread every command would load the rules again (seconds a
 * command on a loaded machine) to pair a handful of questions. Where they run is not the point here.
 */
const RULES_IN_PROCESS = { HQA_OFFLINE_THREADS: '0' };
const env = () => ({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url, ...RULES_IN_PROCESS });

function withDb<T>(read: (db: ReturnType<typeof openAndMigrate>) => T): T {
  const db = openAndMigrate(dbPath);
  try {
    return read(db);
  } finally {
    db.close();
  }
}

const Line = z.object({ custom_id: z.string(), method: z.literal('POST'), url: z.literal('/v1/chat/completions'), body: z.looseObject({ model: z.string(), messages: z.array(z.looseObject({ role: z.string(), content: z.unknown() })), response_format: z.unknown() }) });
const readLines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((text) => Line.parse(JSON.parse(text)));
const schemaOf = (body: unknown) => z.object({ response_format: z.object({ json_schema: z.object({ name: z.string() }) }) }).parse(body).response_format.json_schema.name;
/**
 * Stage 2's wires: a task paired with a proposal, or (choose mode) one whose question the offline
 * rules cannot program. A task paired with none sends no line and ends declined, so a stage's
 * line count is read from the batch, not from --items.
 */
const ITEM_WIRES = ['hqa_item', 'hqa_item_choice'];

beforeAll(async () => {
  // Far apart in wording, so the pool's ROUGE filter keeps every one.
  const proposals = ['Multiply the second category by seven', 'Drop every value under the median', 'Mirror the order of the categories', 'Add twelve to the smallest entry', 'Round each value down to a multiple of five', 'Replace the first value with its square'];
  fake = await startFakeOpenAI({ defaultHandler: hqaModel({ proposals: (call) => [proposals[(call - 1) % proposals.length] ?? 'Negate the first value'] }) });
  expect((await runCli(['import', CHARTQA_SAMPLE, '--json'], { dbPath })).status).toBe(0);
});
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('hqa generate --batch', () => {
  it('sends Stage 1 then Stage 2 as one batch each, with the per-call bodies, and stores verified items with batch-priced llm_calls rows', async () => {
    // The call-by-call engine's first Stage 1 request, to hold the batch lines to.
    const before = fake.requests.length;
    const single = await runCli(['generate', '--engine', 'openai', '--stage', 'proposals', '--chart-type', 'vertical_bar', '--model', 'gpt-4o-mini', '--json'], { dbPath, env: env() });
    expect(single.status, single.stderr).toBe(0);
    const perCall = fake.requests.slice(before).find((r) => r.path === '/v1/chat/completions')?.chat;
    if (!perCall) throw new Error('no per-call request');

    fake.batches.configure({ pollsToComplete: 2, shuffle: true });
    const created = fake.batches.created();
    const linesBefore = fake.batches.lines.length;
    const result = await runCli(
      ['generate', '--engine', 'openai', '--batch', '--batch-poll', '5', '--chart-type', 'vertical_bar', '--items', '3', '--proposal-batches', '2', '--model', 'gpt-4o-mini', '--json'],
      { dbPath, env: env() },
    );
    expect(result.status, result.stderr).toBe(0);
    const report = GenerateReportSchema.parse(JSON.parse(result.stdout));
    expect(fake.batches.created()).toBe(created + 2);
    // No chat completion outside the batches.
    const lines = fake.batches.lines.slice(linesBefore);
    const asked = lines.length - 2;
    expect(asked).toBeGreaterThan(0);
    expect(report).toMatchObject({ status: 'done', proposals_created: 2, items_created: asked, items_failed: 0, items_declined: 3 - asked, llm_calls: 2 + asked });
    expect(lines.slice(0, 2).map((line) => schemaOf(line.body))).toEqual(['proposal_batch', 'proposal_batch']);
    for (const line of lines.slice(2)) expect(ITEM_WIRES).toContain(schemaOf(line.body));
    expect(new Set(lines.slice(0, 2).map((l) => l.batch_id)).size).toBe(1);
    expect(lines[0]?.batch_id).not.toBe(lines[2]?.batch_id);
    expect(lines.every((line) => /^task-\d+$/.test(line.custom_id))).toBe(true);
    const first = z.looseObject({ model: z.string(), temperature: z.unknown(), response_format: z.unknown(), messages: z.array(z.looseObject({ content: z.unknown() })) }).parse(lines[0]?.body);
    expect(first.model).toBe('gpt-4o-mini');
    expect(first.response_format).toEqual(perCall.response_format);
    expect(first.temperature).toEqual(perCall.temperature);
    expect(first.messages[0]?.content).toEqual(perCall.messages[0]?.content);

    const rows = withDb((db) => listLlmCalls(db, { runId: report.run_id }));
    expect(rows.map((r) => r.purpose).sort()).toEqual(['stage1', 'stage1', ...Array<string>(asked).fill('stage2')]);
    expect(rows.every((r) => r.batch_id !== null && r.task_id !== null && r.outcome === 'ok')).toBe(true);
    const prices = SettingsSchema.parse({}).price_table;
    for (const row of rows) expect(row.cost).toBeCloseTo(callCost('gpt-4o-mini', row, prices).cost * 0.5, 12);
    expect(report.cost).toBeCloseTo(rows.reduce((sum, r) => sum + r.cost, 0), 6);
    expect(report.cost).toBeGreaterThan(0);
    const run = withDb((db) => getRun(db, report.run_id));
    expect(run?.batch_progress).toEqual({ state: 'done', total: asked, completed: asked, failed: 0 });
  });

  it('names a failed line: its task fails with the provider’s error, the others are stored', async () => {
    fake.batches.configure({ pollsToComplete: 1 });
    fake.script(errorReply(400, 'prompt too long', { code: 'context_length_exceeded' }));
    const linesBefore = fake.batches.lines.length;
    const result = await runCli(['generate', '--engine', 'openai', '--batch', '--batch-poll', '5', '--stage', 'items', '--items', '4'], { dbPath, env: env() });
    expect(result.status, result.stderr).toBe(0);
    const runId = Number(/^run (\d+) done/.exec(result.stdout)?.[1]);
    const asked = fake.batches.lines.length - linesBefore;
    expect(asked).toBeGreaterThanOrEqual(2);
    // Each step of the batch is a line while it waits: sent, then the counts once it is stored.
    expect(result.stderr).toContain(`run ${runId}: batch submitted 0 of ${asked} (0 failed)`);
    expect(result.stderr).toContain(`run ${runId}: batch done ${asked} of ${asked} (1 failed)`);
    const report = withDb((db) => getRun(db, runId));
    if (!report) throw new Error(`no run ${runId}`);
    expect(report).toMatchObject({ status: 'done', items_failed: 1, items_declined: 4 - asked });
    const errors = withDb((db) => listRunErrors(db, runId));
    expect(errors.map((e) => e.error)).toEqual(['HTTP 400: context_length_exceeded: prompt too long']);
    const rows = withDb((db) => listLlmCalls(db, { runId }));
    expect(rows.filter((r) => r.outcome === 'error')).toHaveLength(1);
    expect(rows).toHaveLength(asked);
    expect(rows.find((r) => r.outcome === 'error')?.task_id).toBe(errors[0]?.task_id);
  });

  it('asks once more, in a second batch with the engine’s repair turn, for a reply that is no item', async () => {
    fake.batches.configure({ pollsToComplete: 1 });
    fake.script(textReply('Sure! Here is the item you asked for.'));
    const created = fake.batches.created();
    const linesBefore = fake.batches.lines.length;
    const result = await runCli(['generate', '--engine', 'openai', '--batch', '--batch-poll', '5', '--stage', 'items', '--items', '2', '--json'], { dbPath, env: env() });
    expect(result.status, result.stderr).toBe(0);
    const report = GenerateReportSchema.parse(JSON.parse(result.stdout));
    expect(fake.batches.created()).toBe(created + 2);
    // The first batch's lines (the tasks paired with a proposal, or offered a list), then the one repair.
    const lines = fake.batches.lines.slice(linesBefore);
    const asked = lines.length - 1;
    expect(asked).toBeGreaterThanOrEqual(1);
    expect(report).toMatchObject({ status: 'done', llm_calls: asked + 1, items_declined: 2 - asked });
    // The repaired reply was read: no task failed on invalid output (what the checks say of the fake's item is another matter).
    expect(withDb((db) => listRunErrors(db, report.run_id)).filter((e) => /invalid/.test(e.error))).toEqual([]);
    const first = lines[0];
    const repair = lines.at(-1);
    expect(repair?.custom_id).toBe(first?.custom_id);
    const messages = z.object({ messages: z.array(z.object({ role: z.string(), content: z.string() })) }).parse(repair?.body).messages;
    expect(messages.slice(0, 2)).toEqual(z.object({ messages: z.array(z.object({ role: z.string(), content: z.string() })) }).parse(first?.body).messages);
    expect(messages[2]).toEqual({ role: 'assistant', content: 'Sure! Here is the item you asked for.' });
    expect(messages[3]?.role).toBe('user');
    expect(messages[3]?.content).toMatch(/not valid JSON/);
    const rows = withDb((db) => listLlmCalls(db, { runId: report.run_id }));
    expect(rows.map((r) => r.outcome)).toEqual(['invalid', ...Array<string>(asked).fill('ok')]);
    expect(rows[0]?.error).toMatch(/^invalid JSON: not valid JSON/);
    expect(rows.every((r) => r.batch_id !== null)).toBe(true);
  });

  it('checks a budget before each stage\'s batch: a cap Stage 1 reached sends no Stage 2', async () => {
    fake.batches.configure({ pollsToComplete: 1 });
    const created = fake.batches.created();
    const result = await runCli(['generate', '--engine', 'openai', '--batch', '--batch-poll', '5', '--chart-type', 'vertical_bar', '--items', '2', '--budget-tokens', '1', '--json'], { dbPath, env: env() });
    expect(result.status, result.stderr).toBe(0);
    const report = GenerateReportSchema.parse(JSON.parse(result.stdout));
    expect(report).toMatchObject({ status: 'done', items_created: 0, llm_calls: 1 });
    expect(report.stop_reason).toMatch(/^budget cap reached: \d+ tokens of 1$/);
    expect(fake.batches.created()).toBe(created + 1);
  });

  /** Three CLI processes (one killed mid-batch) and their tsx start-ups: ~12 s quiet, over 30 s on a loaded 2-core machine. */
  const KILLED_BATCH_TIMEOUT_MS = 120_000;
  it('re-attaches to its batch in flight after being killed: the stage is not sent twice', async () => {
    fake.batches.configure({ pollsToComplete: 1_000_000 });
    const created = fake.batches.created();
    const child = spawn(resolve('node_modules/.bin/tsx'), [resolve('server/cli/main.ts'), 'generate', '--engine', 'openai', '--batch', '--batch-poll', '10', '--chart-type', 'pie', '--items', '2', '--proposal-batches', '1'], {
      env: { ...process.env, HQA_DB: dbPath, HQA_LOG_LEVEL: 'silent', ...env() },
      stdio: 'ignore',
      // Its own process group: tsx runs the CLI in a child node process, which a kill of tsx alone would leave running.
      detached: true,
    });
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    let runId = 0;
    try {
      await expect.poll(() => fake.batches.created(), { timeout: 30_000 }).toBe(created + 1);
      runId = withDb((db) => z.object({ id: z.number() }).parse(db.prepare('SELECT MAX(id) AS id FROM runs').get()).id);
      // Polled at least once and stored: it is waiting on the batch when it dies.
      await expect.poll(() => withDb((db) => getRun(db, runId)?.batch_progress?.state), { timeout: 30_000 }).toBe('in_progress');
    } finally {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      await exited;
    }
    expect(withDb((db) => getRun(db, runId))?.status).toBe('running');
    // The CLI's node process outlives tsx for a moment after the kill: wait until it is gone.
    const ownerPid = withDb((db) => getRun(db, runId)?.owner_pid) ?? 0;
    await expect.poll(() => spawnSync('kill', ['-0', String(ownerPid)]).status !== 0, { timeout: 30_000 }).toBe(true);

    // While a live process owns the run, --run says so and does nothing (this test process stands in for it).
    withDb((db) => setJobOwner(db, 'runs', runId, { pid: process.pid, host: hostname() }));
    const refused = await runCli(['generate', '--run', String(runId), '--batch', '--json'], { dbPath, env: env() });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(new RegExp(`--run: run ${runId} is running in process ${process.pid} on `));
    withDb((db) => setJobOwner(db, 'runs', runId, { pid: ownerPid }));

    fake.batches.configure({ pollsToComplete: 1 });
    const again = await runCli(['generate', '--run', String(runId), '--batch', '--batch-poll', '5', '--json'], { dbPath, env: env() });
    expect(again.status, again.stderr).toBe(0);
    const resumed = GenerateReportSchema.parse(JSON.parse(again.stdout));
    expect(resumed).toMatchObject({ run_id: runId, status: 'done', proposals_created: 1, items_failed: 0 });
    expect(resumed.items_created + resumed.items_declined).toBe(2);
    // Stage 1's batch was the killed process's; only Stage 2's is new.
    expect(fake.batches.created()).toBe(created + 2);
    const rows = withDb((db) => listLlmCalls(db, { runId }));
    expect(rows.filter((r) => r.purpose === 'stage1')).toHaveLength(1);
  }, KILLED_BATCH_TIMEOUT_MS);
});

/** What vllm/entrypoints/openai/run_batch.py writes for a request: a BatchRequestOutput line. */
function vllmLine(customId: string, content: string | null, status = 200) {
  const body =
    status === 200
      ? { id: `chatcmpl-${customId}`, object: 'chat.completion', created: 1, model: 'Qwen/Qwen2-VL-7B', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 } }
      : { error: { message: 'the engine died', code: 'internal_error' } };
  return JSON.stringify({ id: `vllm-${customId}`, custom_id: customId, response: { status_code: status, request_id: `vllm-batch-${customId}`, body }, error: null });
}

/**
 * What an older vllm run_batch.py writes for a request its engine refused: the status in the
 * response, and in `error` that version's ErrorResponse, its fields not wrapped in `error` and its
 * `code` the integer status.
 */
function olderVllmErrorLine(customId: string, message: string) {
  return JSON.stringify({
    id: `vllm-${customId}`,
    custom_id: customId,
    response: { status_code: 400, request_id: `vllm-batch-${customId}`, body: null },
    error: { object: 'error', message, type: 'BadRequestError', param: null, code: 400 },
  });
}

describe('hqa generate --batch-out / --batch-in (vllm run-batch)', () => {
  const PLANNED = 5;
  it('writes each stage’s requests, reads vLLM’s results back into proposals and items, records no llm_calls and names a failed line by custom_id', async () => {
    const stage1 = join(dir, 'stage1.jsonl');
    // Five questions: some get no request (a legend's colour, a wrong label), at least two must.
    const written = await runCli(['generate', '--batch-out', stage1, '--chart-type', 'line', '--items', String(PLANNED), '--proposal-batches', '1', '--model', 'Qwen/Qwen2-VL-7B'], { dbPath, env: RULES_IN_PROCESS });
    expect(written.status, written.stderr).toBe(0);
    const runId = Number(/of run (\d+) to/.exec(written.stdout)?.[1]);
    expect(written.stdout).toContain(`vllm run-batch -i ${stage1} -o OUT --model Qwen/Qwen2-VL-7B`);
    expect(written.stdout).toContain(`hqa generate --run ${runId} --batch-in OUT`);
    expect(withDb((db) => getRun(db, runId))).toMatchObject({ status: 'paused', proposals_created: 0 });
    const lines1 = readLines(stage1);
    expect(lines1).toHaveLength(1);
    expect(lines1[0]?.body.model).toBe('Qwen/Qwen2-VL-7B');
    expect(schemaOf(lines1[0]?.body)).toBe('proposal_batch');

    const out1 = join(dir, 'stage1-out.jsonl');
    writeFileSync(out1, `${lines1.map((l) => vllmLine(l.custom_id, JSON.stringify({ proposals: ['Double the last point of the first series'] }))).join('\n')}\n`);
    const stage2 = join(dir, 'stage2.jsonl');
    const read1 = await runCli(['generate', '--run', String(runId), '--batch-in', out1, '--batch-out', stage2, '--json'], { dbPath, env: RULES_IN_PROCESS });
    expect(read1.status, read1.stderr).toBe(0);
    const lines2 = readLines(stage2);
    const asked = lines2.length;
    expect(asked).toBeGreaterThanOrEqual(2);
    expect(JSON.parse(read1.stdout)).toMatchObject({ run_id: runId, status: 'paused', proposals_created: 1, llm_calls: 0, cost: 0, items_declined: PLANNED - asked, written: { stage: 'item', requests: asked }, read: { stage: 'proposals', stored: 1, failed: [] } });
    for (const line of lines2) expect(ITEM_WIRES).toContain(schemaOf(line.body));
    const [failing, ...answered] = lines2;
    if (!failing) throw new Error('no stage 2 line');
    const out2 = join(dir, 'stage2-out.jsonl');
    // In vLLM's own order (not the input's), one request failed there.
    writeFileSync(
      out2,
      `${[...answered.reverse().map((l) => vllmLine(l.custom_id, JSON.stringify(correctReply(l.body as unknown as FakeChatRequest)))), vllmLine(failing.custom_id, null, 500)].join('\n')}\n`,
    );
    const read2 = await runCli(['generate', '--run', String(runId), '--batch-in', out2], { dbPath, env: RULES_IN_PROCESS });
    expect(read2.status, read2.stderr).toBe(2);
    expect(read2.stderr).toContain(`error: ${failing.custom_id}: HTTP 500: internal_error: the engine died`);
    expect(read2.stdout).toMatch(new RegExp(`read ${asked - 1} results of ${asked} .*no cost`));

    const run = withDb((db) => getRun(db, runId));
    expect(run).toMatchObject({ status: 'done', proposals_created: 1, items_created: asked - 1, items_failed: 1, items_declined: PLANNED - asked, llm_calls: 0, prompt_tokens: 0, cost: 0, batch_progress: null });
    expect(withDb((db) => listLlmCalls(db, { runId }))).toEqual([]);
    expect(withDb((db) => listRunErrors(db, runId)).map((e) => [`task-${e.task_id}`, e.error])).toEqual([[failing.custom_id, 'HTTP 500: internal_error: the engine died']]);
  });

  it('stores the good results of a file holding an older vLLM error line, and names that line by custom_id with its reason', async () => {
    const stage1 = join(dir, 'older-vllm.jsonl');
    const written = await runCli(['generate', '--batch-out', stage1, '--chart-type', 'line', '--stage', 'proposals', '--proposal-batches', '3', '--model', 'Qwen/Qwen2-VL-7B', '--json'], { dbPath, env: RULES_IN_PROCESS });
    expect(written.status, written.stderr).toBe(0);
    const runId = z.object({ run_id: z.number() }).parse(JSON.parse(written.stdout)).run_id;
    const [refused, ...answered] = readLines(stage1);
    if (!refused || answered.length !== 2) throw new Error('expected three Stage 1 lines');
    const out = join(dir, 'older-vllm-out.jsonl');
    const reason = "This model's maximum context length is 4096 tokens. However, you requested 5120 tokens in the messages.";
    const proposals = ['Halve the second point of every series', 'Add ten to the first point of the last series'];
    writeFileSync(out, `${[olderVllmErrorLine(refused.custom_id, reason), ...answered.map((l, i) => vllmLine(l.custom_id, JSON.stringify({ proposals: [proposals[i]] })))].join('\n')}\n`);

    const read = await runCli(['generate', '--run', String(runId), '--batch-in', out], { dbPath, env: RULES_IN_PROCESS });
    expect(read.status, read.stderr).toBe(2);
    expect(read.stderr).toContain(`error: ${refused.custom_id}: HTTP 400: ${reason}`);
    expect(read.stdout).toMatch(/read 2 results of 3 .*\(1 failed;/);
    expect(withDb((db) => getRun(db, runId))).toMatchObject({ proposals_created: 2, tasks_failed: 1 });
    expect(withDb((db) => listRunErrors(db, runId)).map((e) => [`task-${e.task_id}`, e.error])).toEqual([[refused.custom_id, `HTTP 400: ${reason}`]]);
  });

  it('refuses a results file that answers none of the stage’s requests, storing nothing', async () => {
    const stage1 = join(dir, 'other.jsonl');
    const written = await runCli(['generate', '--batch-out', stage1, '--chart-type', 'pie', '--stage', 'proposals', '--model', 'Qwen/Qwen2-VL-7B', '--json'], { dbPath, env: RULES_IN_PROCESS });
    const runId = z.object({ run_id: z.number() }).parse(JSON.parse(written.stdout)).run_id;
    const stray = join(dir, 'stray-out.jsonl');
    writeFileSync(stray, `${vllmLine('task-999999', '{}')}\n`);
    const read = await runCli(['generate', '--run', String(runId), '--batch-in', stray], { dbPath, env: RULES_IN_PROCESS });
    expect(read.status).toBe(1);
    expect(read.stderr).toMatch(/stray-out\.jsonl answers none of run \d+'s 1 Stage 1 \(proposals\) requests/);
    expect(withDb((db) => getRun(db, runId))).toMatchObject({ status: 'paused', tasks_failed: 0 });
  });
});

describe('batch runs on the server (the Runs page\'s Batch box)', () => {
  let server: TestServer;
  let cora: TestClient;
  const runOf = async (id: number) => (await cora.call(runsApi.get, { params: { id } })).run;
  // Lowest ids: the generated demo charts, which all have tables (the demo's image-only chart is a vertical bar too).
  const start = async () => {
    const res = await cora.send(runsApi.create, { body: { engine: 'openai', model: 'gpt-4o-mini', stage: 'both', chart_type: 'vertical_bar', items: 2, order: 'id', proposal_batches: 1, batch: true } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return RunResponseSchema.parse(res.body).run;
  };

  // The server's pairing in-process too: its first task on a thread would wait for the thread to load the rules.
  const threads = process.env.HQA_OFFLINE_THREADS;
  beforeAll(async () => {
    process.env.HQA_OFFLINE_THREADS = RULES_IN_PROCESS.HQA_OFFLINE_THREADS;
    server = await startTestServer({ config: { openaiApiKey: 'test-key', openaiBaseUrl: fake.url, batchPollMs: 10 } });
    await server.createUser('cora', 'curator', 'curator-pass-1');
    cora = new TestClient(server.url);
    await cora.login('cora', 'curator-pass-1');
  });
  afterAll(async () => {
    await server?.close();
    if (threads === undefined) delete process.env.HQA_OFFLINE_THREADS;
    else process.env.HQA_OFFLINE_THREADS = threads;
  });

  it('refuses the batch box for the offline engine, naming the field', async () => {
    const res = await cora.send(runsApi.create, { body: { engine: 'offline', batch: true } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: { field: 'batch' } });
  });

  it('a run whose server died mid-batch re-attaches to its stage\'s batch when resumed', async () => {
    fake.batches.configure({ pollsToComplete: 1_000_000 });
    const { executor } = server.server;
    const created = fake.batches.created();
    const run = await start();
    await expect.poll(async () => (await runOf(run.id)).batch_progress, { timeout: 30_000 }).toEqual({ state: 'in_progress', total: 1, completed: 0, failed: 0 });
    // The server goes away while it waits; its process is then gone (a pid that has exited).
    await executor.shutdown();
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid;
    setJobOwner(server.server.ctx.db, 'runs', run.id, { pid: deadPid, host: hostname() });

    fake.batches.configure({ pollsToComplete: 1 });
    expect(executor.resumeOrphans()).toEqual([run.id]);
    await executor.start(run.id);
    expect(await runOf(run.id)).toMatchObject({ status: 'done', proposals_created: 1, items_created: 2, batch_progress: { state: 'done', total: 2 } });
    expect(fake.batches.created()).toBe(created + 2);
  });

  it('ends item tasks on charts without a table with that reason and sends them in no batch', async () => {
    expect(importFolder(server.server.ctx.db, MULTICHARTQA_DATA, { format: 'multichartqa' }).report.errors).toEqual([]);
    fake.batches.configure({ pollsToComplete: 1 });
    const created = fake.batches.created();
    const { run } = await cora.call(runsApi.create, { body: { engine: 'openai', model: 'gpt-4o-mini', stage: 'items', split: 'multichartqa', items: 2, order: 'id', batch: true } });
    await expect.poll(async () => (await runOf(run.id)).status, { timeout: 30_000 }).toBe('done');
    const detail = await cora.call(runsApi.get, { params: { id: run.id } });
    expect(detail.run).toMatchObject({ items_created: 0, tasks_failed: 2 });
    expect(detail.errors.map((e) => e.error)).toEqual([
      expect.stringMatching(/^chart multichartqa\/.+ has no data table \(image only\): no item can be verified on it yet$/),
      expect.stringMatching(/^chart multichartqa\/.+ has no data table \(image only\): no item can be verified on it yet$/),
    ]);
    expect(fake.batches.created()).toBe(created);
  });

  it('cancelling a batch run cancels its batch at the provider', async () => {
    fake.batches.configure({ pollsToComplete: 1_000_000 });
    const run = await start();
    await expect.poll(async () => (await runOf(run.id)).batch_progress?.state, { timeout: 30_000 }).toBe('in_progress');
    const cancelled = (await cora.call(runsApi.cancel, { params: { id: run.id } })).run;
    expect(cancelled.status).toBe('cancelled');
    await expect.poll(async () => (await runOf(run.id)).batch_progress?.state).toBe('cancelled');
    const batchId = fake.batches.lines.at(-1)?.batch_id;
    expect(fake.requests.some((r) => r.method === 'POST' && r.path === `/v1/batches/${batchId}/cancel`)).toBe(true);
  });
});
