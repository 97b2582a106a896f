import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { z } from 'zod';
import { EvalRunResponseSchema, evalApi, PredictionRowSchema, type EvalRun } from '../../shared/api/evaluations';
import { exportApi } from '../../shared/api/export';
import { ChartHqaExportV1Schema, exportItemId, type ChartHqaItem } from '../../shared/export/chart-hqa';
import { declineRate, percent, roundTo, scoreItems, type ScorableItem } from '../../shared/eval/metrics';
import { relaxedCorrect } from '../../shared/table/answers';
import type { ServerToClientEvents } from '../../shared/events';
import { chartImage } from '../../server/charts/chart-image';
import { scoreFileCommand } from '../../server/cli/score-file-command';
import { hangReply, lastUserText, startFakeOpenAI, textReply, type FakeOpenAI, type RecordedRequest } from '../support/fake-openai';
import { runCli } from '../support/cli';
import { correctAnswer, interruptEvalRun, itemIdsOnDistinctQuestions, listItemIds, setFrozenScore, setItemStatus } from '../support/factories';
import { figuresByKey } from '../support/score-export';
import { addAcceptedDifferentItem } from '../support/different-item';
import { TestClient } from '../support/http-client';
import { generateItems } from '../support/review-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';
import { onEvent } from '../support/socket-client';

let server: TestServer;
let fake: FakeOpenAI;
let cora: TestClient;
let rev: TestClient;
let items: ChartHqaItem[];
/** The export id of the one accepted item whose question is not the factual one. */
let differentId: string;
/** Question text → how the fake model answers it. */
const replies = new Map<string, string>();

const db = () => server.server.ctx.db;
const userMessage = (r: RecordedRequest) => JSON.stringify((r.body as { messages: unknown[] }).messages[1]);
const scorableOf = (list: ChartHqaItem[]): ScorableItem[] =>
  list.map((item) => ({
    id: item.id,
    answer: item.answer,
    answer_type: item.answer_type,
    affects_answer: item.affects_answer,
    original_label: item.original.label,
    question_relation: item.question_relation,
  }));
const sameItems = () => items.filter((item) => item.question_relation === 'same');

async function exportItems(): Promise<ChartHqaItem[]> {
  const res = await cora.send(exportApi.download, { body: { format: 'chart-hqa' } });
  return ChartHqaExportV1Schema.parse(res.body).items;
}

/** Every run end the socket hears, from now on, so a run that ends before its POST answers is not missed. */
function runEnds(socket: Socket<ServerToClientEvents>): (runId: number) => Promise<EvalRun> {
  const ended = new Map<number, EvalRun>();
  const waiting = new Map<number, (run: EvalRun) => void>();
  onEvent(socket, 'eval.progressed', ({ run }) => {
    if (run.status === 'running' || run.status === 'queued') return;
    ended.set(run.id, run);
    waiting.get(run.id)?.(run);
  });
  return (runId) => {
    const run = ended.get(runId);
    return run ? Promise.resolve(run) : new Promise((resolve) => waiting.set(runId, resolve));
  };
}

async function openSocket(client: TestClient): Promise<Socket<ServerToClientEvents>> {
  const socket: Socket<ServerToClientEvents> = connectSocket(server.url, { extraHeaders: { cookie: client.cookie }, transports: ['websocket'] });
  await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
  return socket;
}

beforeAll(async () => {
  fake = await startFakeOpenAI({
    defaultHandler: (chat) => {
      // A group item's question follows its "Chart N:" labels (one before each chart's image).
      const text = lastUserText(chat).replace(/^(\s*Chart \d+:)+/, '').trim();
      return textReply(replies.get(text) ?? 'I cannot tell.');
    },
  });
  server = await startTestServer({ config: { openaiApiKey: 'test-key', openaiBaseUrl: fake.url } });
  // The offline engine makes no item for a factual QA it cannot program: ask for more than the 8 kept.
  const run = await generateItems(server, 16);
  // The fake model answers by the question's text, so the accepted items' factual questions are distinct texts.
  setItemStatus(db(), 'accepted', itemIdsOnDistinctQuestions(db(), run, { limit: 8 }));
  // A reviewer's correction: runs must score against it, as exports do.
  const [corrected] = listItemIds(db(), { statuses: ['accepted'], limit: 1 });
  if (corrected === undefined) throw new Error('no accepted item to correct');
  correctAnswer(db(), corrected, '12345');
  // A hand-written item that asks another question: left out of the decline and bias rates.
  differentId = exportItemId(addAcceptedDifferentItem(db()).id);
  await server.createUser('cora', 'curator', 'curator-pass-1');
  await server.createUser('rev', 'reviewer', 'reviewer-pass-1');
  cora = new TestClient(server.url);
  await cora.login('cora', 'curator-pass-1');
  rev = new TestClient(server.url);
  await rev.login('rev', 'reviewer-pass-1');
  items = await exportItems();
  expect(items).toHaveLength(9);
  expect(items[0]?.answer).toBe('12345');
  expect(items.filter((item) => item.question_relation === 'different').map((item) => item.id)).toEqual([differentId]);
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

/**
 * The fake model: right on all but three items — the first gives the original label, the second
 * rambles, and the different item gets its original label (biased, were it counted).
 */
function scriptModel(): Map<string, string> {
  const predictions = new Map<string, string>();
  items.forEach((item, index) => {
    const answer = item.id === differentId || index === 1 ? item.original.label : index === 2 ? null : item.answer;
    replies.set(item.question, answer === null ? 'Hard to say from this chart\nmaybe more' : `Reasoning…\nAnswer: ${answer}`);
    predictions.set(item.id, answer ?? 'maybe more');
    // The factual question: always the label.
    replies.set(item.original.query, `Answer: ${item.original.label}`);
  });
  return predictions;
}

describe('evaluation runs against an OpenAI-compatible model', () => {
  let hqaRun: EvalRun;

  it('asks every accepted question with its chart as base64, stores and scores each answer, live', async () => {
    const expected = scriptModel();
    const socket = await openSocket(rev);
    const waitForEnd = runEnds(socket);
    try {
      const created = new Promise<EvalRun>((resolve) => onEvent(socket, 'eval.created', ({ run }) => resolve(run)));
      const before = fake.requests.length;
      const { run } = await cora.call(evalApi.create, { body: { engine: 'openai', model: 'vision-1', mode: 'hqa', concurrency: 3 } });
      expect((await created).id).toBe(run.id);
      const ended = await waitForEnd(run.id);
      expect(ended.status).toBe('done');
      hqaRun = ended;

      const sent = fake.requests.slice(before);
      expect(sent).toHaveLength(items.length);
      const firstChart = (db().prepare('SELECT chart_id FROM hqa_items WHERE id = ?').get(Number(items[0]?.id.slice(4))) as { chart_id: number }).chart_id;
      const png = (await chartImage(db(), firstChart))?.png.toString('base64') ?? '';
      const first = sent.find((r) => lastUserTextOf(r) === items[0]?.question);
      expect(first && userMessage(first)).toContain(`data:image/png;base64,${png.slice(0, 60)}`);

      // The stored score is what `hqa score` computes from the same predictions on the export.
      const reference = scoreItems(scorableOf(items), expected);
      expect(ended.score).toEqual(reference);
      // The different item is in the accuracy but left out of the bias rate, though it gave its label.
      const same = sameItems();
      const second = items[1];
      const secondBiased = second?.affects_answer && !relaxedCorrect(second.original.label, second.answer) ? 1 : 0;
      expect(ended.score.left_out_different).toBe(1);
      expect(ended.score.counts).toMatchObject({
        items: 9,
        same_question: 8,
        affects_answer: same.filter((item) => item.affects_answer).length,
        biased: secondBiased,
      });
      expect(ended.score.bias_rate).toBe(roundTo(percent(secondBiased, same.filter((item) => item.affects_answer).length) ?? 0));
      expect(ended.items_answered).toBe(items.length);
      expect(ended.prompt_tokens).toBeGreaterThan(0);
    } finally {
      socket.close();
    }
  });

  it('lists results with outcome, answer type and text filters; raw output kept as text', async () => {
    const all = await rev.call(evalApi.results, { params: { id: hqaRun.id }, query: { page_size: 50 } });
    expect(all.total).toBe(items.length);
    expect(all.results.map((r) => r.id)).toEqual(items.map((i) => i.id));
    const wrong = await rev.call(evalApi.results, { params: { id: hqaRun.id }, query: { outcome: 'wrong' } });
    const wrongIds = all.results.filter((r) => r.correct === false).map((r) => r.id);
    expect(wrong.results.map((r) => r.id)).toEqual(wrongIds);
    expect(wrongIds).toContain(items[2]?.id);
    expect(all.results[2]?.raw).toBe('Hard to say from this chart\nmaybe more');
    const biased = await rev.call(evalApi.results, { params: { id: hqaRun.id }, query: { outcome: 'biased' } });
    expect(biased.results.map((r) => r.id)).toEqual(items[1]?.affects_answer && !relaxedCorrect(items[1].original.label, items[1].answer) ? [items[1].id] : []);
    const search = await rev.call(evalApi.results, { params: { id: hqaRun.id }, query: { q: '12345' } });
    expect(search.results.map((r) => r.id)).toEqual([items[0]?.id]);
    expect((await rev.send(evalApi.results, { params: { id: hqaRun.id }, query: { outcome: 'nonsense' } })).status).toBe(400);
    // The outcomes split the finished questions: a rambling reply is missing, not wrong.
    const total = async (outcome: 'correct' | 'wrong') => (await rev.call(evalApi.results, { params: { id: hqaRun.id }, query: { outcome } })).total;
    const missing = await rev.call(evalApi.results, { params: { id: hqaRun.id }, query: { outcome: 'missing' } });
    expect((await total('correct')) + (await total('wrong')) + missing.total).toBe(items.length);
    expect(missing.results.map((r) => r.prediction)).toEqual(missing.results.map(() => null));
  });

  it('the no-image control sends no chart; the factual run makes the decline rate', async () => {
    const socket = await openSocket(cora);
    const waitForEnd = runEnds(socket);
    try {
      const before = fake.requests.length;
      const noImage = (await cora.call(evalApi.create, { body: { engine: 'openai', model: 'vision-1', mode: 'no_image' } })).run;
      await waitForEnd(noImage.id);
      const sent = fake.requests.slice(before);
      expect(sent).toHaveLength(items.length);
      for (const request of sent) expect(userMessage(request)).not.toContain('image_url');

      const start = fake.requests.length;
      const original = (await cora.call(evalApi.create, { body: { engine: 'openai', model: 'vision-1', mode: 'original' } })).run;
      const ended = await waitForEnd(original.id);
      expect(fake.requests.slice(start).map(lastUserTextOf).sort()).toEqual(items.map((i) => i.original.query).sort());
      expect(ended.score.relaxed_accuracy).toBe(100);
      expect(ended.score.bias_rate).toBeNull();

      const detail = await rev.call(evalApi.get, { params: { id: hqaRun.id } });
      // The breakdown partitions the questions, and its counts are the score's.
      const { breakdown } = detail;
      expect(breakdown.answer_changed.items).toBe(items.filter((i) => i.affects_answer).length);
      expect(breakdown.answer_changed.items + breakdown.answer_kept.items).toBe(items.length);
      expect(breakdown.answer_changed.correct + breakdown.answer_kept.correct).toBe(hqaRun.score.counts.correct);
      const byType = new Map<string, number>();
      for (const item of items) byType.set(item.chart_type, (byType.get(item.chart_type) ?? 0) + 1);
      expect(new Map(breakdown.by_chart_type.map((row) => [row.chart_type, row.items]))).toEqual(byType);
      expect(breakdown.by_chart_type.reduce((sum, row) => sum + row.correct, 0)).toBe(hqaRun.score.counts.correct);
      // The decline rate compares the same questions: the different one (answered wrong) is left out.
      const accHqa = percent(hqaRun.score.counts.same_correct, sameItems().length) ?? 0;
      expect(detail.baseline).toEqual({ run_id: original.id, qa_accuracy: 100, decline_rate: roundTo(declineRate(100, accHqa) ?? 0) });
      const accAll = percent(hqaRun.score.counts.correct, items.length) ?? 0;
      expect(detail.baseline?.decline_rate).not.toBe(roundTo(declineRate(100, accAll) ?? 0));

      const { rows } = await rev.call(evalApi.comparison);
      const row = rows.find((r) => r.model === 'vision-1');
      expect(row).toMatchObject({
        hqa_run_id: hqaRun.id,
        original_run_id: original.id,
        no_image_run_id: noImage.id,
        qa_accuracy: 100,
        hqa_accuracy: hqaRun.score.relaxed_accuracy,
        decline_rate: detail.baseline?.decline_rate,
        answer_type_variance: hqaRun.score.answer_type_variance,
        bias_rate: hqaRun.score.bias_rate,
        left_out_different: 1,
      });
    } finally {
      socket.close();
    }
  });

  it('a cancelled run stops asking and counts the questions it never asked as missing', async () => {
    fake.setDefault(() => hangReply());
    try {
      const { run } = await cora.call(evalApi.create, { body: { engine: 'openai', model: 'slow-1', mode: 'hqa', concurrency: 2 } });
      await expect.poll(() => fake.requests.filter((r) => (r.body as { model: string }).model === 'slow-1').length).toBe(2);
      const cancelled = (await cora.call(evalApi.cancel, { params: { id: run.id } })).run;
      expect(cancelled.status).toBe('cancelled');
      expect(cancelled.items_failed).toBe(items.length);
      expect(cancelled.score.counts).toMatchObject({ items: items.length, missing: items.length, correct: 0 });
      expect((await cora.send(evalApi.cancel, { params: { id: run.id } })).status).toBe(409);
    } finally {
      fake.setDefault((chat) => textReply(replies.get(lastUserText(chat).trim()) ?? 'I cannot tell.'));
    }
  });

  it('a run whose process died resumes from where it was, asking only what is left', async () => {
    const { evalExecutor } = server.server;
    const runId = evalExecutor.createRun({ engine: 'openai', model: 'vision-2', mode: 'hqa', concurrency: 1 }, null).id;
    // Half answered by a process that is gone: its pid is one that has exited.
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid;
    interruptEvalRun(db(), runId, { pid: deadPid, host: (await import('node:os')).hostname(), answered: 4 });
    const before = fake.requests.length;
    expect(evalExecutor.resumeOrphans()).toEqual([runId]);
    await evalExecutor.start(runId);
    expect(fake.requests.length - before).toBe(items.length - 4);
    const run = (await rev.call(evalApi.get, { params: { id: runId } })).run;
    expect(run).toMatchObject({ status: 'done', items_answered: items.length, items_failed: 0 });
  });
});

function lastUserTextOf(request: RecordedRequest): string {
  const messages = (request.body as { messages: { role: string; content: string | { type: string; text?: string }[] }[] }).messages;
  const content = messages.at(-1)?.content ?? '';
  // The question is the last text part (a group item's "Chart N:" labels come before it).
  return typeof content === 'string' ? content : (content.filter((part) => part.type === 'text').at(-1)?.text ?? '');
}

describe('the factual baseline and imported predictions', () => {
  it('the factual baseline answers every question with its factual label: every changed answer is biased', async () => {
    const socket = await openSocket(cora);
    const waitForEnd = runEnds(socket);
    try {
      const { run } = await cora.call(evalApi.create, { body: { engine: 'factual-baseline', mode: 'hqa' } });
      expect(run.model).toBe('factual-baseline');
      const ended = await waitForEnd(run.id);
      // Only the same questions: the different one is answered with its label too, yet not biased.
      const changed = sameItems().filter((i) => i.affects_answer && !relaxedCorrect(i.original.label, i.answer));
      expect(ended.score.counts.biased).toBe(changed.length);
      expect(ended.score.left_out_different).toBe(1);
      const different = (await rev.call(evalApi.results, { params: { id: run.id }, query: { q: 'How many categories' } })).results;
      expect(different.map((r) => ({ id: r.id, prediction: r.prediction, biased: r.biased }))).toEqual([
        { id: differentId, prediction: items.find((i) => i.id === differentId)?.original.label, biased: false },
      ]);
      expect(ended.score.counts.correct).toBe(items.filter((i) => relaxedCorrect(i.original.label, i.answer)).length);
      expect(ended.cost).toBe(0);
    } finally {
      socket.close();
    }
  });

  it('imports predictions made elsewhere, all or nothing, naming a bad row', async () => {
    const runsBefore = (await rev.call(evalApi.list)).runs.length;
    const bad = await cora.refusal(evalApi.import, {
      body: {
        model: 'external-7b',
        mode: 'hqa',
        predictions: [
          { id: items[0]?.id, prediction: items[0]?.answer },
          { id: 'chq-999999', prediction: '1' },
        ],
      },
    });
    expect(bad).toMatchObject({
      status: 400,
      field: 'body.predictions.1.id',
      message: expect.stringContaining('chq-999999') as string,
    });
    expect((await rev.call(evalApi.list)).runs).toHaveLength(runsBefore);

    // Bigger than the app's 256 kB JSON limit: every raw reply comes along.
    const longRaw = 'x'.repeat(60_000);
    const predictions = items.slice(0, 6).map((item, index) => ({ id: item.id, prediction: index <= 1 ? 'wrong' : item.answer, raw: `${longRaw}\nAnswer: ${item.answer}` }));
    const { run } = await cora.call(evalApi.import, { body: { model: 'external-7b', mode: 'hqa', predictions } });
    expect(run).toMatchObject({ engine: 'imported', status: 'done', items_total: items.length, items_answered: 6, items_failed: items.length - 6 });
    expect(run.score).toEqual(scoreItems(scorableOf(items), new Map(predictions.map((p) => [p.id, p.prediction]))));
    const failed = await rev.call(evalApi.results, { params: { id: run.id }, query: { outcome: 'failed' } });
    expect(failed.results.map((r) => r.error)).toEqual(items.slice(6).map(() => 'no prediction in the imported file'));

    // The run's answers download as hqa eval's file, and hqa score on the export agrees with the page.
    const download = await rev.send(evalApi.predictions, { params: { id: run.id } });
    expect(download.headers.get('content-disposition')).toContain(`eval-run-${run.id}-external-7b-hqa.predictions.json`);
    const rows = z.array(PredictionRowSchema).parse(download.body);
    expect(rows).toEqual(predictions);
    const files = mkdtempSync(join(tmpdir(), 'hqa-rescore-'));
    try {
      writeFileSync(join(files, 'export.json'), JSON.stringify((await cora.send(exportApi.download, { body: { format: 'chart-hqa' } })).body));
      writeFileSync(join(files, 'p.json'), JSON.stringify(rows));
      const report = await scoreFileCommand({ dataset: join(files, 'export.json'), predictions: join(files, 'p.json') });
      // Its figures under the other rules too: the same as the run page's.
      const detail = await rev.call(evalApi.get, { params: { id: run.id } });
      const score = run.score;
      expect(score).not.toBeNull();
      expect(figuresByKey(report)).toEqual({
        relaxed_accuracy: score?.relaxed_accuracy,
        ...Object.fromEntries(Object.entries(score?.by_answer_type ?? {}).map(([type, accuracy]) => [`accuracy_${type}`, accuracy])),
        answer_type_variance: score?.answer_type_variance,
        bias_rate: score?.bias_rate,
        left_out_different: score?.left_out_different,
      });
      expect(report.tables[0]?.rows).toEqual(detail.rules.map((entry) => [entry.rule, entry.items, entry.correct, entry.accuracy]));
    } finally {
      rmSync(files, { recursive: true, force: true });
    }
  });

  it('hqa eval-record stores an hqa eval predictions file as a run; a bad file names the row and stores nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hqa-record-'));
    try {
      const bad = join(dir, 'bad.json');
      writeFileSync(bad, JSON.stringify([{ id: items[0]?.id, prediction: 5 }]));
      const refused = await runCli(['eval-record', '--predictions', bad, '--model', 'cli-model'], { dbPath: server.dbPath });
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain(`${bad}: predictions[0].prediction`);

      const good = join(dir, 'p.json');
      writeFileSync(good, JSON.stringify(items.map((item) => ({ id: item.id, prediction: item.original.label, raw: `Answer: ${item.original.label}` }))));
      const result = await runCli(['eval-record', '--predictions', good, '--model', 'cli-model', '--mode', 'original', '--json'], { dbPath: server.dbPath });
      expect(result.status, result.stderr).toBe(0);
      const { run } = EvalRunResponseSchema.parse(JSON.parse(result.stdout));
      expect(run).toMatchObject({ model: 'cli-model', mode: 'original', engine: 'imported', status: 'done' });
      expect(run.score.relaxed_accuracy).toBe(100);
      // The relation comes from the dataset ids: the different item's factual question is left out.
      expect(run.score.left_out_different).toBe(1);
      expect(run.score.counts).toMatchObject({ same_question: 8, same_correct: 8 });
      const listed = (await rev.call(evalApi.list)).runs.filter((r) => r.model === 'cli-model');
      expect(listed.map((r) => r.id)).toEqual([run.id]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lists the questions every compared model got wrong, with each model’s prediction', async () => {
    const { rows } = await rev.call(evalApi.comparison);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    const perRun = await Promise.all(
      rows.map(async (row) => (await rev.call(evalApi.results, { params: { id: row.hqa_run_id }, query: { page_size: 200 } })).results),
    );
    const expected = items
      .filter((item) => perRun.every((results) => results.some((r) => r.id === item.id && r.correct === false)))
      .map((item) => ({ id: item.id, predictions: perRun.map((results) => results.find((r) => r.id === item.id)?.prediction ?? null) }));
    expect(expected.length).toBeGreaterThan(0);
    const unsolved = await rev.call(evalApi.unsolved);
    expect(unsolved.models.map((m) => m.run_id)).toEqual(rows.map((r) => r.hqa_run_id));
    expect(unsolved.compared).toBe(items.length);
    expect(unsolved.total).toBe(expected.length);
    expect(unsolved.questions.map((q) => ({ id: q.id, predictions: q.predictions }))).toEqual(expected);
    // The fake model answered items[0] right (its corrected gold): never unsolved.
    expect(unsolved.questions.map((q) => q.id)).not.toContain(items[0]?.id);
    expect((await rev.send(evalApi.unsolved, { query: { limit: 0 } })).status).toBe(400);
  });

  it('a run frozen before questions had a relation counts every question as the factual one', async () => {
    const cancelled = (await rev.call(evalApi.list)).runs.find((r) => r.model === 'slow-1');
    if (!cancelled) throw new Error('the cancelled run is missing');
    const stored = db().prepare('SELECT score FROM eval_runs WHERE id = ?').get(cancelled.id) as { score: string };
    const { same_question: _same, same_correct: _correct, ...old } = JSON.parse(stored.score) as Record<string, unknown>;
    setFrozenScore(db(), cancelled.id, old);
    const { run } = await rev.call(evalApi.get, { params: { id: cancelled.id } });
    expect(run.score.counts).toMatchObject({ items: items.length, same_question: items.length, same_correct: 0 });
    expect(run.score.left_out_different).toBe(0);
  });

  it('reviewers see runs but cannot start, import or cancel; bad starts name the field', async () => {
    expect((await rev.send(evalApi.list)).status).toBe(200);
    expect((await rev.send(evalApi.create, { body: { engine: 'factual-baseline' } })).status).toBe(403);
    expect((await rev.send(evalApi.import, { body: { model: 'm', predictions: [] } })).status).toBe(403);
    expect((await rev.send(evalApi.cancel, { params: { id: 1 } })).status).toBe(403);
    expect(await cora.refusal(evalApi.create, { body: { engine: 'openai', mode: 'hqa' } })).toMatchObject({ status: 400, field: 'body.model' });
    expect((await cora.send(evalApi.get, { params: { id: 99999 } })).status).toBe(404);
    expect((await new TestClient(server.url).send(evalApi.list)).status).toBe(401);
  });
});
