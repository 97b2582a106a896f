import { z } from 'zod';
import type { Db } from '../../db/database';
import type { RubricFamily } from '../../shared/eval/charxiv-metrics';
import { createLlmClient, type LlmClient, type LlmUsage } from '../llm/llm-client';
import type { ModelConnection } from '../llm/provider';
import type { Random, Sleep } from '../llm/retry';
import { loadTemplate, type TemplateName } from '../llm/templates';
import { findGrade, gradeKey, saveGrade, type GradeKey } from './judge-queries';
import { eachBounded } from '../jobs/bounded';

/**
 * The LLM judge of CharXiv-style scoring: for each answer, the judge model reads the question,
 * the ground truth and the model's whole response under its family's rubric
 * (`prompts/judge-<family>.md`) and replies `{ extracted_answer, score }` in JSON mode at
 * temperature 0. Every request goes through the one transport (a `llm_calls` row each, purpose
 * `judging`, costed from the price table); an unparseable reply gets the one repair retry of
 * `llm-client.ts` and, failing that, is a failed grade whose reason says why. A grade the judge
 * gave is cached by (judge model, prompt hash, question, ground truth, response), so scoring the
 * same answers again asks nothing.
 */

/** Reads are graded, not written: always temperature 0, as CharXiv's grading asks. */
export const JUDGE_TEMPERATURE = 0;
export const JUDGE_PURPOSE = 'judging';
/** Judge calls in flight at once unless the caller says otherwise. */
export const DEFAULT_JUDGE_CONCURRENCY = 8;

/**
 * What the judge replies. `score` is any number, so a judge that says 2 is recorded as it said and
 * counted as an invalid 0 by the metric rather than argued with; `extracted_answer` may come as a
 * number (a tick value) or null (no answer found), as judges write them. A boolean score is read
 * as CharXiv reads it: `json.loads` gives Python's True/False, which equal 1/0, so `score not in
 * [0, 1]` passes them and `sum` counts True as 1 (`src/get_stats.py`, and `verify_grading_output`
 * for descriptive batches).
 */
export const JudgeReplySchema = z.object({
  extracted_answer: z.union([z.string(), z.number(), z.null()]),
  score: z.union([z.number(), z.boolean()]),
});
export type JudgeReply = z.infer<typeof JudgeReplySchema>;

/** The grade a parsed judge reply gives: `true` is 1 and `false` 0, as in Python; a number as the judge said it. */
export function gradeFromReply(wire: JudgeReply): { extracted_answer: string; score: number } {
  const score = typeof wire.score === 'boolean' ? (wire.score ? 1 : 0) : wire.score;
  return { extracted_answer: wire.extracted_answer === null ? '' : String(wire.extracted_answer), score };
}

export interface JudgeRequest {
  /** The caller's name for the answer (a prediction id), carried into its grade. */
  id: string;
  family: RubricFamily;
  question: string;
  groundTruth: string;
  /** The model's whole response; null or blank when it gave none: graded 0 without asking, as CharXiv's rubric says. */
  response: string | null;
}

/** `graded` by a call now, `cached` from an earlier scoring, `no-response` (0, nothing to grade), `failed` (no grade; `error` says why). */
export type JudgeOutcome = 'graded' | 'cached' | 'no-response' | 'failed';

export interface JudgeGrade {
  id: string;
  outcome: JudgeOutcome;
  extracted_answer: string;
  /** As the judge gave it; null when there is no grade. */
  score: number | null;
  error: string | null;
}

export interface JudgeTotals {
  /** Answers asked of the judge now (one logical call each: its retries and repair are attempts). */
  asked: number;
  /** Requests sent, retries and repairs included: one `llm_calls` row each. */
  attempts: number;
  cached: number;
  failed: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
  /** False when the judge model is not in the price table: `cost` is then 0, not "free". */
  priced: boolean;
}

export interface JudgeGraderOptions {
  db: Db;
  /** The judge role's (`providersFor(…).judge`). */
  connection: ModelConnection;
  model: string;
  concurrency?: number;
  /** Called after every answer is settled (graded, cached, failed), with how many of `total` are. */
  onProgress?: (done: number, total: number) => void;
  signal?: AbortSignal;
  sleep?: Sleep;
  random?: Random;
}

export interface JudgeGrader {
  /** Grades in the order of `requests`. */
  grade(requests: readonly JudgeRequest[]): Promise<{ grades: JudgeGrade[]; totals: JudgeTotals }>;
}

/** The prompt of a rubric family. */
export function judgeTemplateName(family: RubricFamily): TemplateName {
  return `judge-${family}`;
}

interface Pending {
  key: GradeKey;
  family: RubricFamily;
  ids: string[];
}

export function createJudgeGrader(options: JudgeGraderOptions): JudgeGrader {
  const { db, model } = options;
  const concurrency = options.concurrency ?? DEFAULT_JUDGE_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`judge concurrency must be a whole number ≥ 1, not ${concurrency}`);
  const client: LlmClient = createLlmClient({
    db,
    connection: options.connection,
    outputMode: 'json_object',
    ...(options.sleep ? { sleep: options.sleep } : {}),
    ...(options.random ? { random: options.random } : {}),
  });

  async function ask(pending: Pending, totals: JudgeTotals): Promise<Omit<JudgeGrade, 'id'>> {
    const template = loadTemplate(judgeTemplateName(pending.family));
    const messages = template.render({ question: pending.key.question, ground_truth: pending.key.groundTruth, response: pending.key.response });
    const result = await client.complete({
      purpose: JUDGE_PURPOSE,
      template: { name: template.name, hash: template.hash },
      messages,
      wireSchema: JudgeReplySchema,
      schemaName: 'JudgeGrade',
      convert: (wire: JudgeReply) => ({ ok: true, value: gradeFromReply(wire) }),
      model,
      temperature: JUDGE_TEMPERATURE,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    addUsage(totals, result.usage, result.attempts);
    if (!result.ok) {
      totals.failed += 1;
      return { outcome: 'failed', extracted_answer: '', score: null, error: `${result.kind}: ${result.reason}` };
    }
    saveGrade(db, pending.key, template.name, result.value);
    return { outcome: 'graded', ...result.value, error: null };
  }

  async function grade(requests: readonly JudgeRequest[]): Promise<{ grades: JudgeGrade[]; totals: JudgeTotals }> {
    const totals: JudgeTotals = { asked: 0, attempts: 0, cached: 0, failed: 0, prompt_tokens: 0, completion_tokens: 0, cost: 0, priced: true };
    const byId = new Map<string, Omit<JudgeGrade, 'id'>>();
    let done = 0;
    const settle = (ids: readonly string[], grade: Omit<JudgeGrade, 'id'>) => {
      for (const id of ids) byId.set(id, grade);
      done += ids.length;
      options.onProgress?.(done, requests.length);
    };

    // The same answer to the same question twice (a repeated figure, a copied prediction) is asked once.
    const queue = new Map<string, Pending>();
    for (const request of requests) {
      const response = request.response?.trim() ?? '';
      if (response === '') {
        settle([request.id], { outcome: 'no-response', extracted_answer: '', score: 0, error: null });
        continue;
      }
      const template = loadTemplate(judgeTemplateName(request.family));
      const key: GradeKey = { judgeModel: model, promptHash: template.hash, question: request.question, groundTruth: request.groundTruth, response };
      const cached = findGrade(db, key);
      if (cached) {
        totals.cached += 1;
        settle([request.id], { outcome: 'cached', ...cached, error: null });
        continue;
      }
      const hash = gradeKey(key);
      const pending = queue.get(hash);
      if (pending) pending.ids.push(request.id);
      else queue.set(hash, { key, family: request.family, ids: [request.id] });
    }

    await eachBounded([...queue.values()], concurrency, async (item) => {
      totals.asked += 1;
      settle(item.ids, await ask(item, totals));
    });
    const grades = requests.map((request) => ({ id: request.id, ...(byId.get(request.id) ?? missingGrade()) }));
    return { grades, totals };
  }

  return { grade };
}

function addUsage(totals: JudgeTotals, usage: LlmUsage, attempts: number): void {
  totals.attempts += attempts;
  totals.prompt_tokens += usage.prompt_tokens;
  totals.completion_tokens += usage.completion_tokens;
  totals.cost += usage.cost;
  if (!usage.priced) totals.priced = false;
}

/** Unreachable while every request settles; kept so a slip shows as a failed grade, not a silent 0. */
function missingGrade(): Omit<JudgeGrade, 'id'> {
  return { outcome: 'failed', extracted_answer: '', score: null, error: 'not graded' };
}
