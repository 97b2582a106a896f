import { z } from 'zod';
import {
  isAnnotatedSubtype,
  scoreJudgementPairs,
  scoreNumericQuestions,
  type Breakdowns,
  type ChartBenchBreakdown,
  type ChartBenchKeys,
  type JudgementPair,
  type NumericQuestion,
  type NumericScore,
  type PairScore,
} from '../../shared/eval/chartbench-metrics';
import { roundTo } from '../../shared/eval/metrics';
import type { ReportTable, ScoreReport } from '../../shared/eval/score-report';
import { SCORING_RULES, type ScoringRule } from '../../shared/eval/scoring-rules';
import { idsWarning, parseWith, readPredictionRows, readRecords, ScoreFileError, type Located, type NamedText } from './score-file-input';

/**
 * ChartBench's published JSONL (`test.jsonl`, `test_mini.jsonl`) scored against predictions,
 * either `hqa eval`'s rows with one id per asked query, `<record id>#<conversation index>`
 * ("1#0" the true assertion of record 1, "1#1" its false one, "4#0" an NQA question), or
 * ChartBench's own result layout: its records with each `conversation[i].answer` filled in
 * (and `gpt_filter`, its GPT-extracted NQA answer, used when present, as its script does).
 */

const JUDGEMENT = 'Acc+';
const NUMERIC = 'GPT-acc';

const ConversationEntrySchema = z.object({ label: z.union([z.string(), z.array(z.string()).min(1)]), query: z.string() });
const RecordSchema = z.object({
  id: z.union([z.number().int(), z.string().min(1)]),
  type: z.object({ chart: z.string(), image: z.string(), task: z.string(), QA: z.enum([JUDGEMENT, NUMERIC]) }),
  conversation: z.array(ConversationEntrySchema).min(1),
});
type ChartBenchRecord = z.infer<typeof RecordSchema>;

/** `<record id>#<conversation index>`: the id of one asked query. */
export function chartBenchQueryId(recordId: string | number, index: number): string {
  return `${recordId}#${index}`;
}

interface Question {
  keys: ChartBenchKeys;
  record: ChartBenchRecord;
  /** Its queries' ids, by conversation index. */
  queryIds: string[];
}

function readDataset(file: NamedText): { questions: Question[]; queryIds: Set<string> } {
  const questions: Question[] = [];
  const queryIds = new Set<string>();
  const recordIds = new Set<string>();
  for (const located of readRecords(file)) {
    const record = parseWith(RecordSchema, located.value, located.where);
    checkRecord(record, located.where);
    const id = String(record.id);
    if (recordIds.has(id)) throw new ScoreFileError(`${located.where}: id: duplicate record id ${id}`);
    recordIds.add(id);
    const ids = record.conversation.map((_entry, index) => chartBenchQueryId(id, index));
    for (const queryId of ids) queryIds.add(queryId);
    const { chart, image, task } = record.type;
    questions.push({ record, queryIds: ids, keys: { group: chart, subtype: image, task, annotated: isAnnotatedSubtype(image) } });
  }
  return { questions, queryIds };
}

/** A judgement pair is two assertions, one labelled Yes and one No; an NQA record asks one question. */
function checkRecord(record: ChartBenchRecord, where: string): void {
  if (record.type.QA === NUMERIC) {
    if (record.conversation.length !== 1) throw new ScoreFileError(`${where}: conversation: expected 1 question for ${NUMERIC}, found ${record.conversation.length}`);
    return;
  }
  if (record.conversation.length !== 2) throw new ScoreFileError(`${where}: conversation: expected 2 assertions for ${JUDGEMENT}, found ${record.conversation.length}`);
  record.conversation.forEach((entry, index) => {
    if (entry.label !== 'Yes' && entry.label !== 'No') throw new ScoreFileError(`${where}: conversation[${index}].label: expected Yes or No`);
  });
  if (record.conversation[0]?.label === record.conversation[1]?.label) throw new ScoreFileError(`${where}: conversation[1].label: both assertions are labelled ${String(record.conversation[0]?.label)}; expected one Yes and one No`);
}

/** Predictions by query id, from either layout. */
function readPredictions(file: NamedText): { replies: Map<string, string | null>; nqaReplies: Map<string, string | null> } {
  const records = readRecords(file);
  const first = records[0]?.value;
  const chartBenchLayout = typeof first === 'object' && first !== null && 'conversation' in first;
  if (!chartBenchLayout) {
    const replies = readPredictionRows(records, file.name);
    return { replies, nqaReplies: replies };
  }
  return readResultLayout(records);
}

const ResultRecordSchema = z.object({
  id: z.union([z.number().int(), z.string().min(1)]),
  conversation: z.array(z.object({ answer: z.string().nullable().optional(), gpt_filter: z.string().optional() })),
});

/** ChartBench's result JSONL: per entry `answer` (the raw reply) and, for NQA, `gpt_filter` preferred. */
function readResultLayout(records: readonly Located[]): { replies: Map<string, string | null>; nqaReplies: Map<string, string | null> } {
  const replies = new Map<string, string | null>();
  const nqaReplies = new Map<string, string | null>();
  for (const located of records) {
    const record = parseWith(ResultRecordSchema, located.value, located.where);
    record.conversation.forEach((entry, index) => {
      const id = chartBenchQueryId(record.id, index);
      if (replies.has(id)) throw new ScoreFileError(`${located.where}: id: duplicate record id ${record.id}`);
      if (entry.answer === undefined) return;
      replies.set(id, entry.answer);
      nqaReplies.set(id, entry.gpt_filter ?? entry.answer);
    });
  }
  return { replies, nqaReplies };
}

export interface ChartBenchScore {
  pairs: Breakdowns<PairScore>;
  /** NQA under each rule, the chosen one first. */
  numeric: { rule: ScoringRule; score: Breakdowns<NumericScore> }[];
  warnings: string[];
}

export function scoreChartBenchTexts(dataset: NamedText, predictionsFile: NamedText, rule: ScoringRule): ChartBenchScore {
  const { questions, queryIds } = readDataset(dataset);
  const { replies, nqaReplies } = readPredictions(predictionsFile);
  const unasked: string[] = [];
  const reply = (id: string, from: Map<string, string | null>): string | null => {
    if (!from.has(id)) unasked.push(id);
    return from.get(id) ?? null;
  };
  const pairs: JudgementPair[] = [];
  const numeric: NumericQuestion[] = [];
  for (const { record, keys, queryIds: ids } of questions) {
    if (record.type.QA === NUMERIC) {
      const label = record.conversation[0]?.label ?? [];
      numeric.push({ ...keys, targets: typeof label === 'string' ? [label] : label, prediction: reply(ids[0] ?? '', nqaReplies) });
      continue;
    }
    const yesIndex = record.conversation[0]?.label === 'Yes' ? 0 : 1;
    const yesReply = reply(ids[yesIndex] ?? '', replies);
    const noReply = reply(ids[1 - yesIndex] ?? '', replies);
    pairs.push({ ...keys, yesReply, noReply });
  }
  const otherRules = SCORING_RULES.filter((other) => other !== rule);
  // The questions are made once and scored under each rule.
  const numericUnder = (r: ScoringRule) => scoreNumericQuestions(numeric, r);
  const unknown = [...replies.keys()].filter((id) => !queryIds.has(id));
  return {
    pairs: scoreJudgementPairs(pairs),
    numeric: [rule, ...otherRules].map((r) => ({ rule: r, score: numericUnder(r) })),
    warnings: [
      ...idsWarning(unknown, `predictions in ${predictionsFile.name} name no query of ${dataset.name} (ids are <record id>#<conversation index>)`),
      ...idsWarning(unasked, `queries of ${dataset.name} have no prediction (counted wrong)`),
    ],
  };
}

const pct = (value: number | null) => (value === null ? null : roundTo(value));

const BREAKDOWN_TITLES: Record<ChartBenchBreakdown, string> = {
  task: 'By task',
  group: 'By chart group',
  subtype: 'By chart subtype',
  annotation: 'Annotated vs unannotated (ChartBench wi_anno subtypes)',
  category: 'Regular (line, bar, pie) vs extra chart groups (ChartBench regular/extra)',
  task_annotation: 'By task, annotated vs unannotated (ChartBench wi_/wo_ per task)',
};
const BREAKDOWN_COLUMNS: Record<ChartBenchBreakdown, string> = {
  task: 'Task',
  group: 'Chart group',
  subtype: 'Chart subtype',
  annotation: 'Annotation',
  category: 'Category',
  task_annotation: 'Task and annotation',
};

function breakdownTable(score: ChartBenchScore, breakdown: ChartBenchBreakdown): ReportTable {
  const pairs = score.pairs.by[breakdown];
  const chosen = score.numeric[0];
  const numeric = chosen?.score.by[breakdown] ?? new Map<string, NumericScore>();
  const keys = [...new Set([...pairs.keys(), ...numeric.keys()])];
  const column = BREAKDOWN_COLUMNS[breakdown];
  return {
    title: BREAKDOWN_TITLES[breakdown],
    columns: [column, 'Pairs', 'Acc+', 'Acc', 'CoR', 'NQA questions', `NQA (${chosen?.rule ?? ''})`],
    rows: keys.map((key) => {
      const p = pairs.get(key);
      const n = numeric.get(key);
      return [key, p?.pairs ?? 0, pct(p?.accPlus ?? null), pct(p?.acc ?? null), pct(p?.cor ?? null), n?.questions ?? 0, pct(n?.accuracy ?? null)];
    }),
  };
}

export function chartBenchReport(score: ChartBenchScore): ScoreReport {
  const overall = score.pairs.overall;
  const [chosen, ...others] = score.numeric;
  const nqa = chosen?.score.overall;
  return {
    format: 'chartbench',
    title: `ChartBench: ${overall.pairs} judgement pairs and ${nqa?.questions ?? 0} NQA questions (NQA under the ${chosen?.rule ?? ''} rule)`,
    figures: [
      { label: 'Acc+', value: pct(overall.accPlus), unit: 'percent', note: `${overall.bothRight} of ${overall.pairs} pairs with both assertions right` },
      { label: 'Acc', value: pct(overall.acc), unit: 'percent', note: `${overall.assertionsRight} of ${overall.pairs * 2} assertions` },
      { label: 'CoR', value: pct(overall.cor), unit: 'percent', note: `${overall.confused} of ${overall.pairs} pairs answered alike (confused)` },
      { label: `NQA (${chosen?.rule ?? ''})`, value: pct(nqa?.accuracy ?? null), unit: 'percent', note: `${nqa?.correct ?? 0} of ${nqa?.questions ?? 0} questions` },
      ...others.map(({ rule, score: s }) => ({ label: `NQA (${rule})`, value: pct(s.overall.accuracy), unit: 'percent' as const, note: `${s.overall.correct} of ${s.overall.questions} questions` })),
      { label: 'Pairs answered the wrong way round', value: overall.reversed, unit: 'count', note: 'no to the true assertion and yes to the false one' },
      { label: 'Pairs with a reply missing', value: overall.missing, unit: 'count' },
      { label: 'NQA questions without a prediction', value: nqa?.missing ?? 0, unit: 'count' },
    ],
    tables: (['task', 'category', 'group', 'subtype', 'annotation', 'task_annotation'] as const).map((breakdown) => breakdownTable(score, breakdown)),
    warnings: score.warnings,
  };
}
