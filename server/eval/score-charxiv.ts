import { z } from 'zod';
import {
  DESCRIPTIVE_TEMPLATES,
  descriptiveJudgeQuestion,
  descriptiveTemplate,
  isValidScore,
  REASONING_CATEGORIES,
  reasoningCategory,
  reasoningFamily,
  scoreDescriptive,
  scoreReasoning,
  type GroupScore,
  type ReasoningCategory,
} from '../../shared/eval/charxiv-metrics';
import type { ReportFigure, ReportTable, ScoreReport } from '../../shared/eval/score-report';
import type { ScoreDeps, ScoreFileInput } from './file-scorers';
import { createJudgeGrader, type JudgeGrade, type JudgeRequest, type JudgeTotals } from './judge-grader';
import { idsWarning, parseJsonText, parseWith, readPredictionRows, readRecords, ScoreFileError, type NamedText } from './score-file-input';

/**
 * `hqa score --format charxiv`: CharXiv's published `descriptive_val.json` or `reasoning_val.json`
 * (told apart by their records' shape) and a model's answers, graded by the LLM judge
 * (`judge-grader.ts`) and reported as CharXiv reports them (`shared/eval/charxiv-metrics.ts`).
 *
 * Prediction ids: a reasoning question is its record's key, the figure id ("12"); a descriptive
 * question is `<figure_id>:<template>` ("12:7", template 7 of figure 12 — a figure asks each of
 * its four templates once). The predictions are `hqa eval`'s rows `[{ id, prediction }]` (JSON or
 * JSON Lines) or CharXiv's own generation output (`gen-<model>-<mode>_val.json`: an object keyed
 * `<figure_id>_<index>` / `<figure_id>` whose values hold `response`).
 */

const SubplotLocSchema = z.union([z.array(z.number().int().min(0)).length(2), z.string().min(1)]);
const TEST_SPLIT_NOTE = "CharXiv's test split is published without answers: only val can be scored";

const DescriptiveRecordSchema = z
  .object({
    figure_id: z.number().int(),
    subplot_loc: SubplotLocSchema,
    qids: z.array(z.number().int().min(1).max(DESCRIPTIVE_TEMPLATES.length)).min(1),
    answers: z.array(z.string({ error: (issue) => (issue.input === null ? `null (${TEST_SPLIT_NOTE})` : 'expected a string') })),
  })
  .refine((record) => record.answers.length === record.qids.length, { message: 'qids and answers differ in length', path: ['answers'] })
  .refine((record) => new Set(record.qids).size === record.qids.length, { message: 'a template is asked twice of one figure', path: ['qids'] });

const ReasoningRecordSchema = z.object({
  figure_id: z.number().int(),
  query: z.string().min(1),
  answer: z.string({ error: (issue) => (issue.input === null ? `null (${TEST_SPLIT_NOTE})` : 'expected a string') }),
  inst_category: z.number().int().min(1).max(REASONING_CATEGORIES.length),
});

/** CharXiv's generation output: one entry per question, the model's text in `response`. */
const CharxivResponsesSchema = z.record(z.string(), z.object({ response: z.string().nullable() }));

/** A descriptive question's prediction id. */
export function charxivDescriptiveId(figureId: number | string, templateId: number): string {
  return `${figureId}:${templateId}`;
}

/** One question to grade, with what its grade is reported under. */
type Question = { id: string; request: Omit<JudgeRequest, 'response'> } & (
  | { mode: 'descriptive'; templateId: number }
  | { mode: 'reasoning'; category: ReasoningCategory }
);

type CharxivMode = 'descriptive' | 'reasoning';

interface Dataset {
  mode: CharxivMode;
  questions: Question[];
  /** CharXiv's own response keys → our ids (`12_3` → `12:7`). */
  nativeIds: Map<string, string>;
}

function readDataset(file: NamedText): Dataset {
  const data = parseJsonText(file);
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ScoreFileError(`${file.name}: expected CharXiv's descriptive_val.json or reasoning_val.json: an object of records keyed by figure id`);
  }
  const entries = Object.entries(data as Record<string, unknown>);
  const first = entries[0]?.[1];
  if (first === undefined) throw new ScoreFileError(`${file.name}: holds no records`);
  const mode = modeOf(first);
  if (mode === null) {
    throw new ScoreFileError(`${file.name}: "${entries[0]?.[0] ?? ''}": neither a descriptive record (figure_id, subplot_loc, qids, answers) nor a reasoning one (figure_id, query, answer, inst_category)`);
  }
  const questions: Question[] = [];
  const nativeIds = new Map<string, string>();
  for (const [key, value] of entries) {
    const where = `${file.name}: "${key}"`;
    if (mode === 'reasoning') {
      const record = parseWith(ReasoningRecordSchema, value, where);
      const category = reasoningCategory(record.inst_category);
      questions.push({ id: key, mode, category, request: { id: key, family: reasoningFamily(category), question: record.query, groundTruth: record.answer } });
      continue;
    }
    const record = parseWith(DescriptiveRecordSchema, value, where);
    record.qids.forEach((templateId, index) => {
      const id = charxivDescriptiveId(key, templateId);
      nativeIds.set(`${key}_${index}`, id);
      const groundTruth = record.answers[index] ?? '';
      questions.push({
        id,
        mode,
        templateId,
        request: { id, family: descriptiveTemplate(templateId).family, question: descriptiveJudgeQuestion(templateId), groundTruth },
      });
    });
  }
  return { mode, questions, nativeIds };
}

function modeOf(record: unknown): CharxivMode | null {
  if (typeof record !== 'object' || record === null) return null;
  if ('qids' in record && 'answers' in record) return 'descriptive';
  if ('query' in record && 'inst_category' in record) return 'reasoning';
  return null;
}

/** Our rows, or CharXiv's generation output with its keys mapped to our ids (unknown keys are kept, to be warned about). */
function readPredictions(file: NamedText, dataset: Dataset): Map<string, string | null> {
  const whole = wholeJson(file.text);
  // One JSON object that is not a row: CharXiv's layout. Anything else is rows (a JSON array, or JSON Lines of rows).
  if (typeof whole !== 'object' || whole === null || Array.isArray(whole) || 'id' in whole) {
    return readPredictionRows(readRecords(file), file.name);
  }
  const native = parseWith(CharxivResponsesSchema, whole, file.name);
  const predictions = new Map<string, string | null>();
  for (const [key, entry] of Object.entries(native)) {
    predictions.set(dataset.mode === 'descriptive' ? (dataset.nativeIds.get(key) ?? key) : key, entry.response);
  }
  return predictions;
}

/** The text as one JSON value, or undefined when it is not one (JSON Lines, or not JSON at all: readRecords says which). */
function wholeJson(text: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch {
    return undefined;
  }
}

const percentFigure = (score: GroupScore, label: string): ReportFigure => ({
  label,
  value: score.score,
  unit: 'percent',
  note: `${score.correct} of ${score.questions} questions`,
});

function judgeFigures(totals: JudgeTotals): ReportFigure[] {
  return [
    { label: 'Judge calls', value: totals.attempts, unit: 'count', note: `${totals.asked} answers asked, retries and repairs included` },
    { label: 'Grades from the cache', value: totals.cached, unit: 'count' },
    { label: 'Failed grades (counted 0)', value: totals.failed, unit: 'count' },
    { label: 'Judge cost (USD)', value: Math.round(totals.cost * 1e6) / 1e6, unit: 'number', note: `${totals.prompt_tokens + totals.completion_tokens} tokens` },
  ];
}

function gradeWarnings(grades: readonly JudgeGrade[], totals: JudgeTotals, model: string): string[] {
  const failed = grades.filter((grade) => grade.outcome === 'failed');
  const invalid = grades.filter((grade) => grade.outcome !== 'failed' && !isValidScore(grade.score));
  const warnings = idsWarning(
    failed.map((grade) => grade.id),
    `answers got no grade from the judge and count as 0 (first: ${failed[0]?.error ?? ''}); they are asked again on the next scoring`,
  );
  warnings.push(...idsWarning(invalid.map((grade) => `${grade.id} (score ${String(grade.score)})`), 'grades were neither 0 nor 1 and count as 0'));
  if (!totals.priced && totals.asked > 0) warnings.push(`the judge model ${model} is not in the price table: its cost shows as 0`);
  return warnings;
}

const row = (score: GroupScore, ...lead: Array<string | number>) => [...lead, score.questions, score.correct, score.invalid, score.score];

function descriptiveReport(questions: readonly Question[], grades: readonly JudgeGrade[], totals: JudgeTotals, model: string, warnings: string[]): ScoreReport {
  // Grades come in the questions' order.
  const scores = scoreDescriptive(questions.flatMap((q, index) => (q.mode === 'descriptive' ? [{ templateId: q.templateId, score: grades[index]?.score ?? null }] : [])));
  const byGroup: ReportTable = {
    title: 'By group',
    columns: ['Group', 'Templates', 'Questions', 'Correct', 'Invalid', 'Score (%)'],
    rows: scores.byGroup.map((group) => {
      const templates = DESCRIPTIVE_TEMPLATES.filter((t) => t.group === group.key).map((t) => `Q${t.id}`);
      return row(group, group.label, templates.join(' '));
    }),
  };
  const byTemplate: ReportTable = {
    title: 'By template',
    columns: ['Template', 'Question', 'Rubric', 'Questions', 'Correct', 'Invalid', 'Score (%)'],
    rows: scores.byTemplate.map((score, index) => {
      const t = DESCRIPTIVE_TEMPLATES[index];
      return row(score, score.key, t?.question ?? '', t?.family ?? '');
    }),
  };
  return {
    format: 'charxiv',
    title: `CharXiv descriptive questions, graded by ${model}`,
    figures: [percentFigure(scores.overall, 'Overall'), ...scores.byGroup.map((group) => percentFigure(group, group.label)), ...judgeFigures(totals)],
    tables: [byGroup, byTemplate],
    warnings: [...warnings, ...gradeWarnings(grades, totals, model)],
  };
}

function reasoningReport(questions: readonly Question[], grades: readonly JudgeGrade[], totals: JudgeTotals, model: string, warnings: string[]): ScoreReport {
  const scores = scoreReasoning(questions.flatMap((q, index) => (q.mode === 'reasoning' ? [{ category: q.category, score: grades[index]?.score ?? null }] : [])));
  const byCategory: ReportTable = {
    title: 'By answer category',
    columns: ['Category', 'inst_category', 'Rubric', 'Questions', 'Correct', 'Invalid', 'Score (%)'],
    rows: scores.byCategory.map((score, index) => row(score, `${score.key} (${score.label})`, index + 1, reasoningFamily(REASONING_CATEGORIES[index] ?? 'TC'))),
  };
  return {
    format: 'charxiv',
    title: `CharXiv reasoning questions, graded by ${model}`,
    figures: [percentFigure(scores.overall, 'Overall'), ...scores.byCategory.map((category) => percentFigure(category, `${category.key} ${category.label}`)), ...judgeFigures(totals)],
    tables: [byCategory],
    warnings: [...warnings, ...gradeWarnings(grades, totals, model)],
  };
}

/** Grades every question's prediction with the judge and reports CharXiv's figures; throws ScoreFileError on bad input or no judge endpoint. */
export async function scoreCharxiv(input: ScoreFileInput, deps: ScoreDeps): Promise<ScoreReport> {
  const dataset = readDataset(input.dataset);
  const predictions = readPredictions(input.predictions, dataset);
  const known = new Set(dataset.questions.map((question) => question.id));
  const missing = dataset.questions.filter((question) => !predictions.has(question.id)).map((question) => question.id);
  const unknown = [...predictions.keys()].filter((id) => !known.has(id));

  const judge = deps.providers().judge;
  if (!judge.connection || !judge.model) {
    throw new ScoreFileError('the judge needs OPENAI_API_KEY (and OPENAI_BASE_URL for an endpoint other than OpenAI): CharXiv answers are graded by an LLM judge, the judge_model setting');
  }
  const grader = createJudgeGrader({ db: deps.db(), connection: judge.connection, model: judge.model, ...(deps.onProgress ? { onProgress: deps.onProgress } : {}) });
  const { grades, totals } = await grader.grade(dataset.questions.map((question) => ({ ...question.request, response: predictions.get(question.id) ?? null })));

  const warnings = [
    ...idsWarning(missing, `questions have no prediction and count as 0${dataset.mode === 'descriptive' ? ' (descriptive ids are "<figure_id>:<template>")' : ''}`),
    ...idsWarning(unknown, 'predictions name no question of the dataset (ignored)'),
  ];
  return dataset.mode === 'descriptive'
    ? descriptiveReport(dataset.questions, grades, totals, judge.model, warnings)
    : reasoningReport(dataset.questions, grades, totals, judge.model, warnings);
}
