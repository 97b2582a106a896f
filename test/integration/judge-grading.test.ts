import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openAndMigrate, type Db } from '../../db/database';
import { DESCRIPTIVE_TEMPLATES } from '../../shared/eval/charxiv-metrics';
import { ScoreReportSchema, type ScoreReport } from '../../shared/eval/score-report';
import { SettingsSchema, type Settings } from '../../shared/settings';
import { loadConfig } from '../../server/config';
import type { ScoreDeps } from '../../server/eval/file-scorers';
import { createJudgeGrader } from '../../server/eval/judge-grader';
import { countGrades } from '../../server/eval/judge-queries';
import { scoreCharxiv } from '../../server/eval/score-charxiv';
import { ScoreFileError } from '../../server/eval/score-file-input';
import { listLlmCalls } from '../../server/llm/llm-call-queries';
import { providersFor } from '../../server/llm/model-roles';
import { loadTemplate } from '../../server/llm/templates';
import { evalApi } from '../../shared/api/evaluations';
import { ErrorBodySchema } from '../../shared/errors';
import { runCli } from '../support/cli';
import { SignedInUsers } from '../support/signed-in-users';
import { startTestServer } from '../support/test-server';
import { jsonReply, startFakeOpenAI, textReply, type FakeChatRequest, type FakeOpenAI, type FakeReply } from '../support/fake-openai';
import { SHARED_DATA } from '../support/paths';

/** CharXiv's real val records (CC BY-SA 4.0), read in place. */
const CHARXIV = resolve(SHARED_DATA, 'seed-benchmarks/charxiv');
const DESCRIPTIVE = join(CHARXIV, 'sample20_descriptive_val.DERIVED.json');
const REASONING = join(CHARXIV, 'sample20_reasoning_val.DERIVED.json');

const JUDGE = 'judge-4o';
const OTHER_JUDGE = 'judge-other';
const PRICE = { input_per_mtok: 2.5, output_per_mtok: 10 };

const dir = mkdtempSync(join(tmpdir(), 'hqa-judge-'));
let fake: FakeOpenAI;
let db: Db;

const messageText = (chat: FakeChatRequest, role: string, index = 0) => {
  const content = chat.messages.filter((m) => m.role === role)[index]?.content;
  return typeof content === 'string' ? content : '';
};
const field = (text: string, name: string) => new RegExp(`^${name}: (.*)$`, 'm').exec(text)?.[1] ?? '';

/**
 * A judge that grades by exact match, except for marker responses: SAY-TWO is given score 2,
 * SAY-TRUE / SAY-FALSE the JSON booleans, SAY-ONE-POINT-O the float 1.0,
 * MALFORMED-ONCE is answered with broken JSON until the repair turn, MALFORMED-ALWAYS always.
 */
function judgeByMatch(chat: FakeChatRequest): FakeReply {
  const user = messageText(chat, 'user');
  const response = field(user, 'Response');
  const repairing = chat.messages.length > 2;
  if (response === 'SAY-TWO') return jsonReply({ extracted_answer: 'two', score: 2 });
  if (response === 'SAY-TRUE') return jsonReply({ extracted_answer: 'yes', score: true });
  if (response === 'SAY-FALSE') return jsonReply({ extracted_answer: 'no', score: false });
  if (response === 'SAY-ONE-POINT-O') return textReply('{"extracted_answer": "one", "score": 1.0}');
  if (response === 'MALFORMED-ALWAYS' || (response === 'MALFORMED-ONCE' && !repairing)) return textReply('{"extracted_answer": "x", "score": ');
  const right = response.trim().toLowerCase() === field(user, 'Ground truth').trim().toLowerCase();
  return jsonReply({ extracted_answer: response, score: right ? 1 : 0 });
}

beforeAll(async () => {
  fake = await startFakeOpenAI({ defaultHandler: judgeByMatch });
});
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  db?.close();
  db = openAndMigrate(join(dir, `${Math.random().toString(36).slice(2)}.sqlite`));
});

const settingsWith = (judgeModel: string, extra: Partial<Settings> = {}): Settings =>
  SettingsSchema.parse({ judge_model: judgeModel, max_retries: 0, price_table: { [JUDGE]: PRICE, [OTHER_JUDGE]: PRICE }, ...extra });

function deps(settings: Settings, withKey = true): ScoreDeps {
  const env = loadConfig(withKey ? { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url } : {});
  return { db: () => db, providers: () => providersFor(settings, env) };
}

const named = (name: string, value: unknown) => ({ name, text: typeof value === 'string' ? value : JSON.stringify(value) });
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as unknown;

const ReasoningSchema = z.record(z.string(), z.object({ figure_id: z.number(), query: z.string(), answer: z.string(), inst_category: z.number() }));
const DescriptiveSchema = z.record(z.string(), z.object({ figure_id: z.number(), qids: z.array(z.number()), answers: z.array(z.string()) }));
const reasoning = ReasoningSchema.parse(readJson(REASONING));
const descriptive = DescriptiveSchema.parse(readJson(DESCRIPTIVE));

/** Of each category's five questions, category c answers c − 1 wrong: TC 5/5, TG 4/5, NC 3/5, NG 2/5. */
function reasoningPredictions(override: Record<string, string> = {}) {
  const wrongSoFar: Record<number, number> = {};
  return Object.entries(reasoning).map(([id, record]) => {
    const wrong = (wrongSoFar[record.inst_category] ?? 0) < record.inst_category - 1;
    if (wrong) wrongSoFar[record.inst_category] = (wrongSoFar[record.inst_category] ?? 0) + 1;
    return { id, prediction: override[id] ?? (wrong ? `not ${record.answer}` : record.answer) };
  });
}

const figure = (report: ScoreReport, label: string) => report.figures.find((f) => f.label === label)?.value;
const chatRequests = () => fake.requests.filter((r) => r.chat !== undefined);

async function scoreReasoning(settings: Settings, predictions: unknown = reasoningPredictions()) {
  const before = chatRequests().length;
  const report = await scoreCharxiv({ dataset: named(REASONING, readFileSync(REASONING, 'utf8')), predictions: named('p.json', predictions), rule: 'chartqa' }, deps(settings));
  return { report: ScoreReportSchema.parse(report), sent: chatRequests().slice(before) };
}

describe('CharXiv grading by the LLM judge', () => {
  it('asks the configured judge model at temperature 0 in JSON mode, with the rubric of each question’s family', async () => {
    const { sent } = await scoreReasoning(settingsWith(JUDGE));
    expect(sent).toHaveLength(20);
    const rubric: Record<number, string> = {
      1: 'Rubric (a reasoning question whose answer is text written in the chart',
      2: 'Rubric (a reasoning question answered with a short phrase',
      3: 'Rubric (a reasoning question answered with a number)',
      4: 'Rubric (a reasoning question answered with a number)',
    };
    for (const request of sent) {
      const chat = request.chat as FakeChatRequest;
      expect(chat).toMatchObject({ model: JUDGE, temperature: 0, response_format: { type: 'json_object' } });
      const user = messageText(chat, 'user');
      const record = Object.values(reasoning).find((r) => r.query === field(user, 'Question'));
      expect(record, user).toBeDefined();
      expect(field(user, 'Ground truth')).toBe(record?.answer);
      expect(messageText(chat, 'system')).toContain(rubric[record?.inst_category ?? 0]);
    }
  });

  it('aggregates the grades × 100 per answer category and overall', async () => {
    const { report } = await scoreReasoning(settingsWith(JUDGE));
    expect(report.title).toBe(`CharXiv reasoning questions, graded by ${JUDGE}`);
    expect(figure(report, 'Overall')).toBe(70); // 14 of 20
    expect([figure(report, 'TC Text in chart'), figure(report, 'TG Text in general'), figure(report, 'NC Number in chart'), figure(report, 'NG Number in general')]).toEqual([100, 80, 60, 40]);
    expect(report.tables[0]?.rows.map((row) => [row[0], row[3], row[4], row[6]])).toEqual([
      ['TC (Text in chart)', 5, 5, 100],
      ['TG (Text in general)', 5, 4, 80],
      ['NC (Number in chart)', 5, 3, 60],
      ['NG (Number in general)', 5, 2, 40],
    ]);
    expect(report.warnings).toEqual([]);
  });

  it('counts a score of 2 as 0, names it, and repairs a malformed reply once or names the grade failed', async () => {
    // Question "0" (TC) is otherwise right: each marker takes one right answer away.
    const [first, second, third] = Object.keys(reasoning).filter((id) => reasoning[id]?.inst_category === 1);
    const { report, sent } = await scoreReasoning(
      settingsWith(JUDGE),
      reasoningPredictions({ [first ?? '']: 'SAY-TWO', [second ?? '']: 'MALFORMED-ONCE', [third ?? '']: 'MALFORMED-ALWAYS' }),
    );
    // 20 questions; MALFORMED-ONCE and MALFORMED-ALWAYS each get the one repair turn.
    expect(sent).toHaveLength(22);
    const repair = sent.find((r) => (r.chat?.messages.length ?? 0) > 2)?.chat;
    expect(messageText(repair as FakeChatRequest, 'user', 1)).toContain('not valid JSON for JudgeGrade');
    // TC: 5 right before, SAY-TWO (invalid 0), MALFORMED-ONCE (repaired, graded 0 by match), MALFORMED-ALWAYS (failed, 0) → 2 of 5.
    expect(figure(report, 'TC Text in chart')).toBe(40);
    expect(report.tables[0]?.rows[0]).toEqual(['TC (Text in chart)', 1, 'text-in-chart', 5, 2, 2, 40]);
    expect(figure(report, 'Failed grades (counted 0)')).toBe(1);
    expect(report.warnings).toEqual([
      expect.stringMatching(new RegExp(`^1 answers got no grade from the judge and count as 0 \\(first: invalid: invalid JSON after repair: .*\\); they are asked again on the next scoring: ${third}$`)),
      `1 grades were neither 0 nor 1 and count as 0: ${first} (score 2)`,
    ]);
    // The failed one is not cached: scoring again asks it (and its repair) and nothing else.
    const again = await scoreReasoning(settingsWith(JUDGE), reasoningPredictions({ [first ?? '']: 'SAY-TWO', [second ?? '']: 'MALFORMED-ONCE', [third ?? '']: 'MALFORMED-ALWAYS' }));
    expect(again.sent).toHaveLength(2);
    expect(figure(again.report, 'Grades from the cache')).toBe(19);
  });

  it('records every judge request as a llm_calls row with purpose judging, the rubric’s template and hash, and its cost', async () => {
    const [first] = Object.keys(reasoning);
    await scoreReasoning(settingsWith(JUDGE), reasoningPredictions({ [first ?? '']: 'MALFORMED-ONCE' }));
    const calls = listLlmCalls(db);
    expect(calls).toHaveLength(21);
    const template = loadTemplate('judge-text-in-chart');
    const repaired = calls.filter((call) => call.attempt === 2);
    expect(repaired).toHaveLength(1);
    expect(calls.filter((call) => call.outcome === 'invalid').map((call) => call.attempt)).toEqual([1]);
    for (const call of calls) {
      expect(call).toMatchObject({ purpose: 'judging', model: JUDGE, engine: 'openai' });
      expect(call.prompt_tokens).toBeGreaterThan(0);
      expect(call.cost).toBeCloseTo((call.prompt_tokens * PRICE.input_per_mtok + call.completion_tokens * PRICE.output_per_mtok) / 1e6, 12);
    }
    expect(calls.find((call) => call.template === 'judge-text-in-chart')?.template_hash).toBe(template.hash);
    expect(new Set(calls.map((call) => call.template))).toEqual(new Set(['judge-text-in-chart', 'judge-text-in-general', 'judge-number']));
  });

  it('re-scoring the same file makes no model call; changing the judge model grades again', async () => {
    const first = await scoreReasoning(settingsWith(JUDGE));
    expect(first.sent).toHaveLength(20);
    expect(countGrades(db, JUDGE)).toBe(20);
    const cost = figure(first.report, 'Judge cost (USD)');
    expect(cost).toBeGreaterThan(0);

    const again = await scoreReasoning(settingsWith(JUDGE));
    expect(again.sent).toHaveLength(0);
    expect(figure(again.report, 'Overall')).toBe(70);
    expect([figure(again.report, 'Grades from the cache'), figure(again.report, 'Judge calls'), figure(again.report, 'Judge cost (USD)')]).toEqual([20, 0, 0]);

    const other = await scoreReasoning(settingsWith(OTHER_JUDGE));
    expect(other.sent).toHaveLength(20);
    expect(other.sent.every((r) => r.chat?.model === OTHER_JUDGE)).toBe(true);
    expect(countGrades(db, OTHER_JUDGE)).toBe(20);
    // A changed answer is a new grade; the others still come from the cache.
    const [id] = Object.keys(reasoning);
    const changed = await scoreReasoning(settingsWith(JUDGE), reasoningPredictions({ [id ?? '']: 'a different answer' }));
    expect(changed.sent).toHaveLength(1);
  });

  it('grades descriptive questions by "<figure_id>:<template>" ids and reports CharXiv’s five groups, reading CharXiv’s own response files too', async () => {
    const extraction = new Set(DESCRIPTIVE_TEMPLATES.filter((t) => t.group === 'information_extraction').map((t) => t.id));
    // Every information-extraction answer wrong, every other one right.
    const rows = Object.entries(descriptive).flatMap(([figureId, record]) =>
      record.qids.map((qid, index) => ({ id: `${figureId}:${qid}`, prediction: extraction.has(qid) ? 'wrong' : (record.answers[index] ?? '') })),
    );
    const dataset = named(DESCRIPTIVE, readFileSync(DESCRIPTIVE, 'utf8'));
    const before = chatRequests().length;
    const report = ScoreReportSchema.parse(await scoreCharxiv({ dataset, predictions: named('p.json', rows), rule: 'chartqa' }, deps(settingsWith(JUDGE))));
    const sent = chatRequests().slice(before);
    // One call per distinct (template, ground truth, response): e.g. every "Not Applicable" answered right for Q12 is asked once.
    const distinct = new Set(rows.map((row) => {
      const [figureId, qid] = row.id.split(':');
      const record = descriptive[figureId ?? ''];
      return JSON.stringify([qid, record?.answers[record.qids.indexOf(Number(qid))], row.prediction]);
    }));
    expect(distinct.size).toBeLessThan(80);
    expect(sent).toHaveLength(distinct.size);
    expect(report.title).toBe(`CharXiv descriptive questions, graded by ${JUDGE}`);
    expect(figure(report, 'Information extraction')).toBe(0);
    for (const label of ['Enumeration', 'Pattern recognition', 'Counting', 'Compositionality']) expect(figure(report, label), label).toBe(100);
    // The sample's 80 questions hold 31 of Q1–Q7: 49 of 80 right.
    expect(figure(report, 'Overall')).toBe(61.25);
    expect(report.tables[0]?.rows.map((row) => [row[0], row[2]])).toEqual([
      ['Information extraction', 31],
      ['Enumeration', 26],
      ['Pattern recognition', 8],
      ['Counting', 9],
      ['Compositionality', 6],
    ]);
    expect(report.tables.map((t) => t.title)).toEqual(['By group', 'By template']);
    // Layout and title questions go to their own rubrics, the judge told the template's question.
    const layout = sent.find((r) => field(messageText(r.chat as FakeChatRequest, 'user'), 'Question') === 'What is the layout of the subplots?');
    expect(messageText(layout?.chat as FakeChatRequest, 'system')).toContain('Rubric (the layout of a figure');
    expect(sent.some((r) => field(messageText(r.chat as FakeChatRequest, 'user'), 'Question') === 'For the plot, what is its title?')).toBe(true);

    // CharXiv's generate.py output, keyed <figure_id>_<index>, scores the same, from the cache.
    const native = Object.fromEntries(
      Object.entries(descriptive).flatMap(([figureId, record]) =>
        record.qids.map((qid, index) => [`${figureId}_${index}`, { figure_id: record.figure_id, qid, response: extraction.has(qid) ? 'wrong' : record.answers[index] }]),
      ),
    );
    const beforeNative = chatRequests().length;
    const again = await scoreCharxiv({ dataset, predictions: named('gen-model-descriptive_val.json', JSON.stringify(native, null, 2)), rule: 'chartqa' }, deps(settingsWith(JUDGE)));
    expect(chatRequests().length).toBe(beforeNative);
    expect(again.figures).toEqual(report.figures.map((f) => (f.label === 'Grades from the cache' ? { ...f, value: 80 } : f.label === 'Judge calls' ? { ...f, value: 0, note: '0 answers asked, retries and repairs included' } : f.label === 'Judge cost (USD)' ? { ...f, value: 0, note: '0 tokens' } : f)));
  });

  it('grades a missing prediction 0 without asking, and warns about it and about ids that name no question', async () => {
    // "0" has no prediction, "2" an empty one, "9999" names no question.
    const rows = [...reasoningPredictions({ 2: '  ' }).filter((row) => row.id !== '0'), { id: '9999', prediction: 'x' }];
    const { report, sent } = await scoreReasoning(settingsWith(JUDGE), rows);
    expect(sent).toHaveLength(18);
    // TC had 5 of 5 right; "0" and "2" are two of them.
    expect(figure(report, 'TC Text in chart')).toBe(60);
    expect(report.warnings).toContain('1 questions have no prediction and count as 0: 0');
    expect(report.warnings).toContain('1 predictions name no question of the dataset (ignored): 9999');
  });

  it('keeps at most its concurrency of judge calls in flight and reports progress after every answer', async () => {
    let inFlight = 0;
    let most = 0;
    const settings = settingsWith(JUDGE);
    const connection = providersFor(settings, loadConfig({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url })).judge.connection;
    if (!connection) throw new Error('no judge connection');
    const progress: Array<[number, number]> = [];
    const grader = createJudgeGrader({ db, connection, model: JUDGE, concurrency: 3, onProgress: (done, total) => progress.push([done, total]) });
    const requests = Array.from({ length: 12 }, (_, i) => ({ id: `a${i}`, family: 'number' as const, question: `Value ${i}?`, groundTruth: String(i), response: i === 11 ? null : String(i) }));
    fake.setDefault(async (chat) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      // The fake judge's latency, not a wait for anything: calls overlap, so the bound can be seen.
      await new Promise((done) => setTimeout(done, 30));
      inFlight -= 1;
      return judgeByMatch(chat);
    });
    try {
      const { grades, totals } = await grader.grade(requests);
      expect(most).toBe(3);
      expect(totals).toMatchObject({ asked: 11, attempts: 11, cached: 0, failed: 0 });
      expect(grades.map((g) => [g.id, g.outcome, g.score])).toEqual(requests.map((r, i) => [r.id, i === 11 ? 'no-response' : 'graded', i === 11 ? 0 : 1]));
      expect(progress.map(([done]) => done)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
      expect(progress.every(([, total]) => total === 12)).toBe(true);
    } finally {
      fake.setDefault(judgeByMatch);
    }
  });

  it('reads a boolean score as CharXiv does (True counts 1, False 0) and a float 1.0 as 1', async () => {
    const connection = providersFor(settingsWith(JUDGE), loadConfig({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url })).judge.connection;
    if (!connection) throw new Error('no judge connection');
    const grader = createJudgeGrader({ db, connection, model: JUDGE });
    const responses = ['SAY-TRUE', 'SAY-FALSE', 'SAY-ONE-POINT-O', 'SAY-TWO'];
    const requests = responses.map((response, i) => ({ id: `b${i}`, family: 'text-in-chart' as const, question: 'Which?', groundTruth: 'x', response }));
    const { grades, totals } = await grader.grade(requests);
    expect(totals).toMatchObject({ asked: 4, attempts: 4, failed: 0 });
    expect(grades.map((g) => [g.outcome, g.extracted_answer, g.score])).toEqual([
      ['graded', 'yes', 1],
      ['graded', 'no', 0],
      ['graded', 'one', 1],
      ['graded', 'two', 2],
    ]);
    // Stored as the number it counts as: a second scoring reads 1 and 0 from the cache.
    const again = await grader.grade(requests);
    expect(again.grades.map((g) => [g.outcome, g.score])).toEqual([['cached', 1], ['cached', 0], ['cached', 1], ['cached', 2]]);
  });

  it('reports the file scorer’s progress through ScoreDeps.onProgress: (done, total) in order, ending at total, cached answers too', async () => {
    const input = { dataset: named(REASONING, readFileSync(REASONING, 'utf8')), predictions: named('p.json', reasoningPredictions()), rule: 'chartqa' as const };
    for (const run of ['graded', 'cached']) {
      const progress: Array<[number, number]> = [];
      const report = await scoreCharxiv(input, { ...deps(settingsWith(JUDGE)), onProgress: (done, total) => progress.push([done, total]) });
      expect(figure(report, 'Grades from the cache'), run).toBe(run === 'cached' ? 20 : 0);
      expect(progress, run).toEqual(Array.from({ length: 20 }, (_, i) => [i + 1, 20]));
    }
  });

  it('refuses to grade without an endpoint, saying the judge needs OPENAI_API_KEY', async () => {
    const input = { dataset: named(REASONING, readFileSync(REASONING, 'utf8')), predictions: named('p.json', reasoningPredictions()), rule: 'chartqa' as const };
    await expect(scoreCharxiv(input, deps(settingsWith(JUDGE), false))).rejects.toThrow(new ScoreFileError('the judge needs OPENAI_API_KEY (and OPENAI_BASE_URL for an endpoint other than OpenAI): CharXiv answers are graded by an LLM judge, the judge_model setting'));
  });

  it('names a file that is no CharXiv dataset, and the null answers of the test split', async () => {
    const score = (dataset: unknown) => scoreCharxiv({ dataset: named('d.json', dataset), predictions: named('p.json', []), rule: 'chartqa' }, deps(settingsWith(JUDGE)));
    await expect(score([])).rejects.toThrow(/d\.json: expected CharXiv's descriptive_val\.json or reasoning_val\.json/);
    await expect(score({ 1: { figure_id: 1, title: 'x' } })).rejects.toThrow(/d\.json: "1": neither a descriptive record/);
    await expect(score({ 1: { figure_id: 1, query: 'q?', answer: null, inst_category: 1 } })).rejects.toThrow(/d\.json: "1": answer: null \(CharXiv's test split is published without answers/);
    await expect(score({ 1: { figure_id: 1, subplot_loc: [0, 0], qids: [1, 20], answers: ['a', 'b'] } })).rejects.toThrow(/"1": qids\[1\]/);
  });
});

describe('hqa score --format charxiv', () => {
  const run = async (env: Record<string, string>, predictions: string) =>
    await runCli(['score', '--format', 'charxiv', '--dataset', REASONING, '--predictions', predictions, '--json'], { dbPath: join(dir, 'cli.sqlite'), env });

  it('grades through the judge at OPENAI_BASE_URL with the judge_model setting, and a second run from the cache', async () => {
    const predictions = join(dir, 'cli-predictions.json');
    writeFileSync(predictions, JSON.stringify(reasoningPredictions()));
    const before = chatRequests().length;
    const result = await run({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url }, predictions);
    expect(result.status, result.stderr).toBe(0);
    const report = ScoreReportSchema.parse(JSON.parse(result.stdout));
    expect(figure(report, 'Overall')).toBe(70);
    // Not a terminal: a progress line per tenth of the answers on stderr, none on stdout.
    expect(result.stderr.trim().split('\n')).toEqual(Array.from({ length: 10 }, (_, i) => `judge: ${2 * (i + 1)} of 20 answers graded (${10 * (i + 1)}%)`));
    const sent = chatRequests().slice(before);
    expect(sent).toHaveLength(20);
    // The default judge: CharXiv's paper graded with GPT-4o.
    expect(sent.every((r) => r.chat?.model === 'gpt-4o')).toBe(true);

    const again = await run({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url }, predictions);
    expect(again.status, again.stderr).toBe(0);
    expect(chatRequests().length).toBe(before + 20);
    expect(figure(ScoreReportSchema.parse(JSON.parse(again.stdout)), 'Grades from the cache')).toBe(20);
  });

  it('without OPENAI_API_KEY exits 1 saying the judge needs it', async () => {
    const predictions = join(dir, 'cli-none.json');
    writeFileSync(predictions, JSON.stringify(reasoningPredictions()));
    const result = await runCli(['score', '--format', 'charxiv', '--dataset', REASONING, '--predictions', predictions], { dbPath: join(dir, 'cli.sqlite'), env: {} });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^error: the judge needs OPENAI_API_KEY/);
  });
});

describe('POST /api/eval/score-file with format charxiv (the Evaluation page)', () => {
  it('grades through the server’s judge, recording its calls in the server’s database, and answers 400 without an endpoint', async () => {
    const server = await startTestServer({ demo: false, config: { openaiApiKey: 'test-key', openaiBaseUrl: fake.url } });
    const offline = await startTestServer({ demo: false });
    try {
      const reviewer = (await new SignedInUsers(server).create('reviewer')).client;
      const body = { format: 'charxiv', dataset: { name: 'reasoning_val.json', text: readFileSync(REASONING, 'utf8') }, predictions: { name: 'p.json', text: JSON.stringify(reasoningPredictions()) } };
      const res = await reviewer.post(evalApi.scoreFile.path, body);
      expect(res.status).toBe(200);
      expect(figure(ScoreReportSchema.parse(res.body), 'NC Number in chart')).toBe(60);
      const calls = listLlmCalls(server.server.ctx.db);
      expect(calls).toHaveLength(20);
      expect(calls.every((call) => call.purpose === 'judging' && call.model === 'gpt-4o')).toBe(true);

      const none = await (await new SignedInUsers(offline).create('reviewer')).client.post(evalApi.scoreFile.path, body);
      expect(none.status).toBe(400);
      expect(ErrorBodySchema.parse(none.body).error.message).toMatch(/^the judge needs OPENAI_API_KEY/);
    } finally {
      await server.close();
      await offline.close();
    }
  });
});
