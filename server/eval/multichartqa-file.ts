import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { PredictionRowSchema } from '../../shared/api/evaluations';
import { roundTo } from '../../shared/eval/metrics';
import { scoreMultiChartQa, type CreditScore, type MultiChartQaQuestion, type MultiChartQaScore } from '../../shared/eval/multichartqa-metrics';
import type { ReportTable, ScoreReport } from '../../shared/eval/score-report';
import { idsWarning, parseJsonText, parseWith, readRecords, ScoreFileError, type NamedText } from './score-file-input';

/**
 * MultiChartQA's `data/<group>/chart-path_and_question-answer_pair.json` (a list of question
 * records) scored against `hqa eval` rows keyed by the question id (`group_165_question_0`). The
 * reply scored is the row's `raw` (the model's whole reply, which the reference parses) when the
 * row has one, else its `prediction`.
 */

export const MULTICHARTQA_QA_FILE = 'chart-path_and_question-answer_pair.json';
/** A question without a task label (newer groups have none) is reported under this. */
export const NO_TASK = '(no task label)';

const QuestionRecordSchema = z.object({
  id: z.string().min(1),
  question: z.string(),
  answer: z.string(),
  task: z.string().min(1).optional(),
  type: z.enum(['open-ended', 'multiple-choice']),
});
type QuestionRecord = z.infer<typeof QuestionRecordSchema>;

/** One QA file's records, each checked, named by file and index when bad. */
export function readMultiChartQaFile(file: NamedText): QuestionRecord[] {
  const data = parseJsonText(file);
  if (!Array.isArray(data)) throw new ScoreFileError(`${file.name}: expected a JSON list of question records`);
  return data.map((value: unknown, index) => parseWith(QuestionRecordSchema, value, `${file.name}: [${index}]`));
}

/**
 * `--dataset` given as a folder: every `<group>/chart-path_and_question-answer_pair.json` under it
 * (the repository's `data/`, or the repository itself with its `data/`), checked file by file and
 * joined into one list, so the scorer sees one dataset text.
 */
export function readMultiChartQaDirectory(dir: string): NamedText {
  const root = statSync(join(dir, 'data'), { throwIfNoEntry: false })?.isDirectory() ? join(dir, 'data') : dir;
  const files = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(root, entry.name, MULTICHARTQA_QA_FILE))
    .filter((file) => statSync(file, { throwIfNoEntry: false })?.isFile())
    .sort();
  if (files.length === 0) throw new ScoreFileError(`${dir}: no <group>/${MULTICHARTQA_QA_FILE} under it`);
  const records = files.flatMap((file) => readMultiChartQaFile({ name: file, text: readFileSync(file, 'utf8') }));
  return { name: `${dir} (${files.length} groups)`, text: JSON.stringify(records) };
}

/** Made once (zod compiles a schema on first use). */
const ReplyRowSchema = PredictionRowSchema.pick({ id: true, prediction: true, raw: true });

function readReplies(file: NamedText): Map<string, string | null> {
  const replies = new Map<string, string | null>();
  for (const record of readRecords(file)) {
    const row = parseWith(ReplyRowSchema, record.value, record.where);
    if (replies.has(row.id)) throw new ScoreFileError(`${record.where}: id: duplicate id "${row.id}"`);
    replies.set(row.id, row.raw ?? row.prediction);
  }
  return replies;
}

export interface MultiChartQaFileScore {
  score: MultiChartQaScore;
  warnings: string[];
}

export function scoreMultiChartQaTexts(dataset: NamedText, predictions: NamedText): MultiChartQaFileScore {
  const records = readMultiChartQaFile(dataset);
  const replies = readReplies(predictions);
  const ids = new Set<string>();
  const unanswered: string[] = [];
  const questions: MultiChartQaQuestion[] = records.map((record, index) => {
    if (ids.has(record.id)) throw new ScoreFileError(`${dataset.name}: [${index}].id: duplicate question id "${record.id}"`);
    ids.add(record.id);
    if (!replies.has(record.id)) unanswered.push(record.id);
    return { task: record.task ?? NO_TASK, type: record.type, answer: record.answer, reply: replies.get(record.id) ?? null };
  });
  return {
    score: scoreMultiChartQa(questions),
    warnings: [
      ...idsWarning([...replies.keys()].filter((id) => !ids.has(id)), `predictions in ${predictions.name} name no question of ${dataset.name}`),
      ...idsWarning(unanswered, `questions of ${dataset.name} have no prediction (counted wrong)`),
    ],
  };
}

const pct = (value: number | null) => (value === null ? null : roundTo(value));

function creditTable(title: string, column: string, slices: Map<string, CreditScore>): ReportTable {
  return {
    title,
    columns: [column, 'Questions', 'Credit', 'Fully right', 'Accuracy'],
    rows: [...slices].map(([key, s]) => [key, s.questions, roundTo(s.credit, 4), s.fullyRight, pct(s.accuracy)]),
  };
}

export function multiChartQaReport({ score, warnings }: MultiChartQaFileScore): ScoreReport {
  const { overall } = score;
  return {
    format: 'multichartqa',
    title: `MultiChartQA: ${overall.questions} questions, accuracy with partial credit per ; part`,
    figures: [
      { label: 'Accuracy', value: pct(overall.accuracy), unit: 'percent', note: `${roundTo(overall.credit, 4)} credit over ${overall.questions} questions` },
      { label: 'Fully right', value: overall.fullyRight, unit: 'count', note: `of ${overall.questions} questions` },
      { label: 'Questions without a prediction', value: overall.missing, unit: 'count' },
    ],
    tables: [creditTable('By task', 'Task', score.byTask), creditTable('By question type', 'Type', score.byType)],
    warnings,
  };
}
