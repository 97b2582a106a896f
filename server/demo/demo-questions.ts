import type { DataTable } from '../../shared/table/model';
import type { Maker, QuestionContext } from './demo-question-context';
import {
  average,
  columnCompare,
  columnExtreme,
  columnPair,
  count,
  lookup,
  seriesCompare,
  seriesExtreme,
  seriesPair,
} from './demo-question-makers';
import { shuffle, type Rng } from '../../shared/random';

/** Factual QAs for a demo chart, whose labels are computed from the table as the importer reads it. */

export const DEMO_QUESTION_KINDS = ['lookup', 'max', 'min', 'difference', 'sum', 'average', 'count', 'compare'] as const;
export type DemoQuestionKind = (typeof DEMO_QUESTION_KINDS)[number];

export interface DemoQuestion {
  kind: DemoQuestionKind;
  query: string;
  label: string;
}

const MAKERS: Record<DemoQuestionKind, readonly Maker[]> = {
  lookup: [lookup],
  max: [columnExtreme('max'), seriesExtreme('max')],
  min: [columnExtreme('min'), seriesExtreme('min')],
  difference: [columnPair('difference'), seriesPair('difference')],
  sum: [columnPair('sum'), seriesPair('sum')],
  average: [average],
  count: [count],
  compare: [columnCompare, seriesCompare],
};

/** One question of the given kind about the table, or null when the table cannot support one. */
export function demoQuestion(kind: DemoQuestionKind, table: DataTable, ctx: QuestionContext, rng: Rng): DemoQuestion | null {
  for (const maker of shuffle(rng, MAKERS[kind])) {
    const answer = maker(table, ctx, rng);
    if (answer) return { kind, ...answer };
  }
  return null;
}

/**
 * Up to `count` factual questions of distinct kinds, a lookup first. Missing cells are never
 * asked about, and aggregates (max, min, average, count) are only asked of complete columns.
 */
export function demoQuestionsForTable(table: DataTable, ctx: QuestionContext, rng: Rng, count: number): DemoQuestion[] {
  const kinds: DemoQuestionKind[] = ['lookup', ...shuffle(rng, DEMO_QUESTION_KINDS.filter((k) => k !== 'lookup'))];
  const out: DemoQuestion[] = [];
  for (const kind of kinds) {
    if (out.length >= count) break;
    const question = demoQuestion(kind, table, ctx, rng);
    if (question && !out.some((q) => q.query === question.query)) out.push(question);
  }
  return out;
}
