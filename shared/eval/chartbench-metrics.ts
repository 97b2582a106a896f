import { pythonStrip } from '../table/python-float';
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

export type ChartBenchBreakdown = 'group' | 'subtype' | 'task' | 'annotation' | 'category' | 'task_annotation';
export const CHARTBENCH_BREAKDOWNS: readonly ChartBenchBreakdown[] = ['group', 'subtype', 'task', 'annotation', 'category', 'task_annotation'];

/**
 * ChartBench's chart groups by subtype (`metric_group` in its script, its `wi_anno`/`wo_anno`
 * lists aside): the script's `regular` column is the line, bar and pie groups, `extra` the rest.
 * `ring_wi_anno` is in no group there (its pie group lists `ring` and `ring_wo_anno`), so it is
 * in neither column, as the script leaves it.
 */
const CHARTBENCH_SUBTYPE_GROUPS: Readonly<Record<string, readonly string[]>> = {
  box: ['box_h', 'box_v', 'stock'],
  combination: ['bar_line', 'line_line', 'pie_bar', 'pie_pie'],
  pie: ['sector', 'ring_wo_anno', 'pie', 'ring', 'InteSun'],
  scatter: ['scatter_2d', 'scatter_2d_smooth', 'scatter_3d'],
  line: ['line_err', 'line_multi_wi_anno', 'line_multi', 'line_single_wi_anno', 'line_single'],
  bar: [
    'horizontal_single', 'vertical_single', 'horizontal_single_wi_anno', 'vertical_single_wi_anno', 'vertical_percent_stacked', 'horizontal_multi',
    'vertical_multi', 'threeD_stacked', 'vertical_stacked', 'horizontal_stacked', 'threeD_bar_multi', 'horizontal_percent_stacked', 'threeD_percent_stacked',
  ],
  radar: ['radar_single_wi_anno', 'radar_single', 'radar_multi_fill', 'radar_multi'],
  area: ['area', 'area_stack', 'area_percent'],
  node: ['node_link', 'node_link_dir', 'node_link_undir'],
};
const REGULAR_GROUPS = new Set(['line', 'bar', 'pie']);

/** `regular` or `extra` as ChartBench's script files a subtype; undefined for one in none of its groups. */
export function chartBenchCategory(subtype: string): 'regular' | 'extra' | undefined {
  const group = Object.entries(CHARTBENCH_SUBTYPE_GROUPS).find(([, subtypes]) => subtypes.includes(subtype))?.[0];
  if (group === undefined) return undefined;
  return REGULAR_GROUPS.has(group) ? 'regular' : 'extra';
}

export const ANNOTATED = 'annotated';
export const UNANNOTATED = 'unannotated';

export interface Breakdowns<S> {
  overall: S;
  /** Per key value, in the order values first appear. */
  by: Record<ChartBenchBreakdown, Map<string, S>>;
}

function breakdownKey(keys: ChartBenchKeys, breakdown: ChartBenchBreakdown): string | undefined {
  const annotation = keys.annotated === undefined ? undefined : keys.annotated ? ANNOTATED : UNANNOTATED;
  if (breakdown === 'annotation') return annotation;
  if (breakdown === 'category') return keys.subtype === undefined ? undefined : chartBenchCategory(keys.subtype);
  // The script's wi_CR … wo_GC columns.
  if (breakdown === 'task_annotation') return keys.task === undefined || annotation === undefined ? undefined : `${keys.task} ${annotation}`;
  return keys[breakdown];
}

const emptyBreakdowns = <A>(): Record<ChartBenchBreakdown, Map<string, A>> =>
  Object.fromEntries(CHARTBENCH_BREAKDOWNS.map((breakdown) => [breakdown, new Map<string, A>()])) as Record<ChartBenchBreakdown, Map<string, A>>;

/** Adds each entry to the overall accumulator and to one per breakdown value it names. */
function accumulate<T extends ChartBenchKeys, A>(entries: readonly T[], fresh: () => A, add: (acc: A, entry: T) => void): Breakdowns<A> {
  const overall = fresh();
  const by = emptyBreakdowns<A>();
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
  const by = emptyBreakdowns<S>();
  for (const breakdown of CHARTBENCH_BREAKDOWNS) by[breakdown] = mapAll(source.by[breakdown]);
  return { overall: f(source.overall), by };
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
    // The script's `eval_answer.strip()`: Python's whitespace, so a byte-order mark stays (and the reply is then no number).
    const prediction = pythonStrip(question.prediction);
    if (question.targets.some((target) => correctUnder(rule, prediction, target))) counts.correct += 1;
  };
  return mapBreakdowns(
    accumulate(questions, (): NumericCounts => ({ questions: 0, correct: 0, missing: 0 }), add),
    (counts) => ({ ...counts, accuracy: percent(counts.correct, counts.questions) }),
  );
}
