import { correctUnder, type ScoringRule } from './scoring-rules';
import { percent } from './metrics';

/**
 * ChartBench's metrics (IDEA-FinAI/ChartBench, Stat/stat_all_metric.py): Acc+, Acc and CoR over
 * judgement pairs (a true assertion, labelled Yes, and a false one, labelled No, about the same
 * chart), and NQA, relaxed accuracy on one numeric question. docs/benchmark-metrics.md says where
 * we differ from the reference script and why.
 */

/** ChartBench's `fuzzy_match`: a reply is "yes" when it contains "yes" anywhere, any case, else "no". */
export function isYesReply(reply: string): boolean {
  return reply.toLowerCase().includes('yes');
}

/**
 * The subtypes ChartBench counts as annotated (`metric_group['wi_anno']` in its script): the
 * `*_wi_anno` ones and the charts that print their values (pie_pie, pie_bar, directed and
 * undirected node links). Every other subtype is unannotated, as its script counts them.
 */
export const CHARTBENCH_ANNOTATED_SUBTYPES: ReadonlySet<string> = new Set([
  'horizontal_single_wi_anno',
  'vertical_single_wi_anno',
  'pie_pie',
  'pie_bar',
  'radar_single_wi_anno',
  'node_link_dir',
  'node_link_undir',
  'ring_wi_anno',
  'line_multi_wi_anno',
  'line_single_wi_anno',
]);

export function isAnnotatedSubtype(subtype: string): boolean {
  return CHARTBENCH_ANNOTATED_SUBTYPES.has(subtype);
}

/** Where an item sits in the breakdowns; absent keys leave it out of that breakdown only. */
export interface ChartBenchKeys {
  group?: string;
  subtype?: string;
  task?: string;
  annotated?: boolean;
}

export interface JudgementPair extends ChartBenchKeys {
  /** The reply to the true assertion (labelled Yes); null when the model gave none. */
  yesReply: string | null;
  /** The reply to the false assertion (labelled No); null when the model gave none. */
  noReply: string | null;
}

export interface PairCounts {
  pairs: number;
  /** Pairs with the true assertion answered yes and the false one no. */
  bothRight: number;
  /** Assertions (two per pair) answered right. */
  assertionsRight: number;
  /** Pairs whose two assertions got the same answer (yes–yes or no–no). */
  confused: number;
  /** Pairs answered exactly the wrong way round (no to the true, yes to the false): ChartBench's "err". */
  reversed: number;
  /** Pairs with at least one reply missing: such a reply is wrong and the pair neither confused nor reversed. */
  missing: number;
}

/** Counts and their rates in percent, unrounded; a rate is null over no pairs. */
export interface PairScore extends PairCounts {
  accPlus: number | null;
  acc: number | null;
  cor: number | null;
}

export type ChartBenchBreakdown = 'group' | 'subtype' | 'task' | 'annotation';
export const CHARTBENCH_BREAKDOWNS: readonly ChartBenchBreakdown[] = ['group', 'subtype', 'task', 'annotation'];

export const ANNOTATED = 'annotated';
export const UNANNOTATED = 'unannotated';

export interface Breakdowns<S> {
  overall: S;
  /** Per key value, in the order values first appear. */
  by: Record<ChartBenchBreakdown, Map<string, S>>;
}

function breakdownKey(keys: ChartBenchKeys, breakdown: ChartBenchBreakdown): string | undefined {
  if (breakdown === 'annotation') return keys.annotated === undefined ? undefined : keys.annotated ? ANNOTATED : UNANNOTATED;
  return keys[breakdown];
}

/** Adds each entry to the overall accumulator and to one per breakdown value it names. */
function accumulate<T extends ChartBenchKeys, A>(entries: readonly T[], fresh: () => A, add: (acc: A, entry: T) => void): Breakdowns<A> {
  const overall = fresh();
  const by = { group: new Map<string, A>(), subtype: new Map<string, A>(), task: new Map<string, A>(), annotation: new Map<string, A>() };
  for (const entry of entries) {
    add(overall, entry);
    for (const breakdown of CHARTBENCH_BREAKDOWNS) {
      const key = breakdownKey(entry, breakdown);
      if (key === undefined) continue;
      let acc = by[breakdown].get(key);
      if (acc === undefined) {
        acc = fresh();
        by[breakdown].set(key, acc);
      }
      add(acc, entry);
    }
  }
  return { overall, by };
}

function mapBreakdowns<A, S>(source: Breakdowns<A>, f: (acc: A) => S): Breakdowns<S> {
  const mapAll = (m: Map<string, A>) => new Map([...m].map(([key, acc]) => [key, f(acc)] as const));
  return {
    overall: f(source.overall),
    by: { group: mapAll(source.by.group), subtype: mapAll(source.by.subtype), task: mapAll(source.by.task), annotation: mapAll(source.by.annotation) },
  };
}

const emptyPairCounts = (): PairCounts => ({ pairs: 0, bothRight: 0, assertionsRight: 0, confused: 0, reversed: 0, missing: 0 });

function addPair(counts: PairCounts, pair: JudgementPair): void {
  counts.pairs += 1;
  const yesRight = pair.yesReply !== null && isYesReply(pair.yesReply);
  const noRight = pair.noReply !== null && !isYesReply(pair.noReply);
  counts.assertionsRight += Number(yesRight) + Number(noRight);
  if (yesRight && noRight) counts.bothRight += 1;
  if (pair.yesReply === null || pair.noReply === null) {
    counts.missing += 1;
    return;
  }
  if (isYesReply(pair.yesReply) === isYesReply(pair.noReply)) counts.confused += 1;
  else if (!yesRight) counts.reversed += 1;
}

function pairScore(counts: PairCounts): PairScore {
  return {
    ...counts,
    accPlus: percent(counts.bothRight, counts.pairs),
    acc: percent(counts.assertionsRight, counts.pairs * 2),
    cor: percent(counts.confused, counts.pairs),
  };
}

/** Acc+, Acc and CoR over judgement pairs, overall and per chart group, subtype, task and annotation. */
export function scoreJudgementPairs(pairs: readonly JudgementPair[]): Breakdowns<PairScore> {
  return mapBreakdowns(accumulate(pairs, emptyPairCounts, addPair), pairScore);
}

export interface NumericQuestion extends ChartBenchKeys {
  /** The model's answer; null when it gave none (counted wrong). */
  prediction: string | null;
  /** The gold answers: right when any one is matched (ChartBench's script takes the max over its labels). */
  targets: readonly string[];
}

export interface NumericCounts {
  questions: number;
  correct: number;
  missing: number;
}

export interface NumericScore extends NumericCounts {
  /** Percent, unrounded; null over no questions. */
  accuracy: number | null;
}

/** NQA accuracy under `rule`, overall and per breakdown. */
export function scoreNumericQuestions(questions: readonly NumericQuestion[], rule: ScoringRule): Breakdowns<NumericScore> {
  const add = (counts: NumericCounts, question: NumericQuestion) => {
    counts.questions += 1;
    if (question.prediction === null) {
      counts.missing += 1;
      return;
    }
    const prediction = question.prediction.trim();
    if (question.targets.some((target) => correctUnder(rule, prediction, target))) counts.correct += 1;
  };
  return mapBreakdowns(
    accumulate(questions, (): NumericCounts => ({ questions: 0, correct: 0, missing: 0 }), add),
    (counts) => ({ ...counts, accuracy: percent(counts.correct, counts.questions) }),
  );
}
