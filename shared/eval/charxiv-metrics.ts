import { roundedPercent } from './metrics';

/**
 * CharXiv's metrics (princeton-nlp/CharXiv, src/get_stats.py and src/score_utils.py): an LLM judge
 * gives every answer a 0/1 grade under a rubric chosen by the question's family
 * (src/descriptive_utils.py `get_rubric`, src/constants.py `REASONING_GRADING_INST`), and the
 * grades are averaged × 100 — descriptive questions per group of templates, reasoning questions per
 * answer category, and overall. A grade other than 0 or 1 (a judge that said 2, or no usable
 * reply) counts as 0 and is counted as invalid, as get_stats.py does. docs/llm-judge.md says where
 * we differ from the reference and why.
 */

/** The five groups CharXiv reports descriptive questions in (`QNUM2QTYPE`). */
export const DESCRIPTIVE_GROUPS = ['information_extraction', 'enumeration', 'pattern_recognition', 'counting', 'compositionality'] as const;
export type DescriptiveGroup = (typeof DESCRIPTIVE_GROUPS)[number];
export const DESCRIPTIVE_GROUP_LABELS: Record<DescriptiveGroup, string> = {
  information_extraction: 'Information extraction',
  enumeration: 'Enumeration',
  pattern_recognition: 'Pattern recognition',
  counting: 'Counting',
  compositionality: 'Compositionality',
};

/** Reasoning answer categories by `inst_category` 1–4: text in the chart, text in general, a number read off the chart, a number in general. */
export const REASONING_CATEGORIES = ['TC', 'TG', 'NC', 'NG'] as const;
export type ReasoningCategory = (typeof REASONING_CATEGORIES)[number];
export const REASONING_CATEGORY_LABELS: Record<ReasoningCategory, string> = {
  TC: 'Text in chart',
  TG: 'Text in general',
  NC: 'Number in chart',
  NG: 'Number in general',
};

/**
 * The rubric families: one judge prompt each (`prompts/judge-<family>.md`). The descriptive ones
 * follow CharXiv's seven (title, ocr, quant, bool, enum, trend, layout); the reasoning ones its
 * instructions per category, numbers in and beyond the chart sharing one rubric as there.
 */
export const DESCRIPTIVE_FAMILIES = ['title', 'chart-text', 'quantity', 'yes-no', 'ordered-list', 'trend', 'layout'] as const;
export const REASONING_FAMILIES = ['text-in-chart', 'text-in-general', 'number'] as const;
export const RUBRIC_FAMILIES = [...DESCRIPTIVE_FAMILIES, ...REASONING_FAMILIES] as const;
export type RubricFamily = (typeof RUBRIC_FAMILIES)[number];

/** The benchmark's answer when the asked-about part is absent; every figure has one such question. */
export const NOT_APPLICABLE = 'Not Applicable';

export interface DescriptiveTemplate {
  /** CharXiv's template number, 1–19 (`qids`). */
  id: number;
  group: DescriptiveGroup;
  family: RubricFamily;
  /** The question, lower-case after its location ("For the current plot, what is its title?"). */
  question: string;
  /** The answer instructions CharXiv gives the model with the question. */
  instructions: readonly string[];
  /** Asked of one subplot (located); the layout and subplot-count templates ask of the whole figure. */
  located: boolean;
}

const NA_NOTE = (what: string) => `If ${what}, answer "${NOT_APPLICABLE}".`;
const X_AXIS = 'including the case when the x-axis is shared across multiple subplots. When the x-axis is present on both the top and bottom of the plot, answer based on the axis at the bottom.';
const Y_AXIS = 'including the case when the y-axis is shared across multiple subplots. When the y-axis is present on both the left and right of the plot, answer based on the axis at the left.';
const NO_UNITS = 'Ignore units or scales that are written separately from the tick, such as units and scales from the axis label or the corner of the plot.';
const NO_AUX_LINES = 'Ignore grid lines, tick marks, and any vertical or horizontal auxiliary lines.';
const NO_LINES = 'the plot does not contain any lines or is not considered a line plot';
const NO_LEGEND = 'the plot does not have a legend or no legend is considered relevant to this plot';
const LEGEND_ONLY = 'Your final answer should account for only labels relevant to the plot in the legend, even if the legend is located outside the plot.';
const NO_PERCENT_SIGN = 'You should remove the percentage sign (if any) in your answer.';
const NO_COLORBAR = 'the plot does not have an explicit colorbar-based continuous legend or the legend is not considered relevant to this subplot';
const TICK_STEP = (axis: 'x' | 'y') =>
  `the plot does not have an explicit ${axis}-axis tick value, or if the tick values are not numerical, or if the difference is not constant between all consecutive tick values`;

const template = (
  id: number,
  group: DescriptiveGroup,
  family: RubricFamily,
  question: string,
  instructions: string[],
  located = true,
): DescriptiveTemplate => ({ id, group, family, question, instructions, located });

/**
 * CharXiv's 19 descriptive templates (src/constants.py `DESCRIPTIVE_RESP_INST`, Apache-2.0). The
 * questions are the benchmark's own, so they keep its wording: a model asked otherwise would not be
 * answering CharXiv. Groups from `QNUM2QTYPE`, families from `get_rubric`.
 */
export const DESCRIPTIVE_TEMPLATES: readonly DescriptiveTemplate[] = [
  template(1, 'information_extraction', 'title', 'what is its title?', [
    'Your final answer should be the most relevant title of the plot that is explicitly written.',
    NA_NOTE('the plot does not have an explicit title or contains only a letter'),
  ]),
  template(2, 'information_extraction', 'chart-text', 'what is the label of the x-axis?', [
    `Your final answer should be the label of the x-axis that is explicitly written, ${X_AXIS}`,
    NA_NOTE('the plot does not have an explicit x-axis label'),
  ]),
  template(3, 'information_extraction', 'chart-text', 'what is the label of the y-axis?', [
    `Your final answer should be the label of the y-axis that is explicitly written, ${Y_AXIS}`,
    NA_NOTE('the plot does not have an explicit y-axis label'),
  ]),
  template(4, 'information_extraction', 'chart-text', 'what is the leftmost labeled tick on the x-axis?', [
    `Your final answer should be the tick value on the x-axis that is explicitly written, ${X_AXIS} ${NO_UNITS}`,
  ]),
  template(5, 'information_extraction', 'chart-text', 'what is the rightmost labeled tick on the x-axis?', [
    `Your final answer should be the tick value on the x-axis that is explicitly written, ${X_AXIS} ${NO_UNITS}`,
  ]),
  template(6, 'information_extraction', 'chart-text', 'what is the spatially lowest labeled tick on the y-axis?', [
    `Your final answer should be the tick value on the y-axis that is explicitly written, ${Y_AXIS} ${NO_UNITS}`,
  ]),
  template(7, 'information_extraction', 'chart-text', 'what is the spatially highest labeled tick on the y-axis?', [
    `Your final answer should be the tick value on the y-axis that is explicitly written, ${Y_AXIS} ${NO_UNITS}`,
  ]),
  template(8, 'enumeration', 'quantity', 'what is difference between consecutive numerical tick values on the x-axis?', [
    `Your final answer should be the difference between consecutive numerical tick values of the x-axis, ${X_AXIS} ${NO_UNITS}`,
    NA_NOTE(TICK_STEP('x')),
  ]),
  template(9, 'enumeration', 'quantity', 'what is difference between consecutive numerical tick values on the y-axis?', [
    `Your final answer should be the difference between consecutive numerical tick values of the y-axis, ${Y_AXIS} ${NO_UNITS}`,
    NA_NOTE(TICK_STEP('y')),
  ]),
  template(10, 'counting', 'quantity', 'how many lines are there?', [
    `Your final answer should be the number of lines in the plot. ${NO_AUX_LINES}`,
    NA_NOTE(NO_LINES),
  ]),
  template(11, 'pattern_recognition', 'yes-no', 'do any lines intersect?', [
    `Your final answer should be "Yes" if any lines intersect, and "No" otherwise. ${NO_AUX_LINES}`,
    NA_NOTE(NO_LINES),
  ]),
  template(12, 'counting', 'quantity', 'how many discrete labels are there in the legend?', [
    LEGEND_ONLY,
    NA_NOTE(NO_LEGEND),
  ]),
  template(13, 'enumeration', 'ordered-list', 'what are the names of the labels in the legend?', [
    `You should write down the labels from top to bottom, then from left to right and separate the labels with commas. ${LEGEND_ONLY}`,
    NA_NOTE(NO_LEGEND),
  ]),
  template(14, 'enumeration', 'quantity', 'what is the difference between the maximum and minimum values of the tick labels on the continuous legend (i.e., colorbar)?', [
    NO_PERCENT_SIGN,
    NA_NOTE(NO_COLORBAR),
  ]),
  template(15, 'enumeration', 'quantity', 'what is the maximum value of the tick labels on the continuous legend (i.e., colorbar)?', [
    NO_PERCENT_SIGN,
    NA_NOTE(NO_COLORBAR),
  ]),
  template(16, 'pattern_recognition', 'trend', 'what is the general trend of data from left to right?', [
    'Your final answer should be within a few words, such as "increases", "increases then stabilizes".',
  ]),
  template(17, 'compositionality', 'quantity', 'what is the total number of explicitly labeled ticks across all axes?', [
    'Your final answer should be the total number of explicitly labeled ticks across all axes, including the case when any axis is shared across multiple subplots.',
  ]),
  template(18, 'pattern_recognition', 'layout', 'What is the layout of the subplots?', [
    'Your final answer should follow "n by m" format, where n is the number of rows and m is the number of columns.',
    'If the plot does not contain subplots, answer "1 by 1".',
  ], false),
  template(19, 'counting', 'quantity', 'What is the number of subplots?', [
    'Your final answer should be the total number of subplots in the plot.',
    'If the plot does not contain subplots, answer "1".',
  ], false),
];

/** The template numbered `id` (1–19); throws on any other number, naming it. */
export function descriptiveTemplate(id: number): DescriptiveTemplate {
  const found = Number.isInteger(id) ? DESCRIPTIVE_TEMPLATES[id - 1] : undefined;
  if (!found) throw new RangeError(`CharXiv descriptive template ${id} does not exist (templates are 1–19)`);
  return found;
}

/** Where a descriptive question points: `[row, column]` (`[0, 0]` for a single plot) or a phrase ("the bottom left subplot"). */
export type SubplotLoc = readonly [number, number] | readonly number[] | string;

/** "For the current plot, " / "For the subplot at row 2 and column 1, " / "For the bottom subplot, " (`descriptive_query_helper`). */
export function subplotPrefix(loc: SubplotLoc): string {
  if (typeof loc === 'string') return `For ${loc}, `;
  const [row, column] = loc;
  if (row === 0) return 'For the current plot, ';
  return `For the subplot at row ${row} and column ${column}, `;
}

/** The question a model is asked for template `id` at `loc`, then the answer instructions, one per line. */
export function descriptiveQuestion(id: number, loc: SubplotLoc): string {
  const t = descriptiveTemplate(id);
  const question = t.located ? `${subplotPrefix(loc)}${t.question}` : t.question;
  return [question, ...t.instructions.map((line) => `* ${line}`)].join('\n');
}

/**
 * What the judge is told was asked: the template's question of "the plot", without the subplot's
 * location or the answer instructions — the same text for every figure, so the rubric, not the
 * figure, decides the grade (CharXiv's judge too sees one question per template).
 */
export function descriptiveJudgeQuestion(id: number): string {
  const t = descriptiveTemplate(id);
  return t.located ? `For the plot, ${t.question}` : t.question;
}

/** `inst_category` 1–4 → TC, TG, NC, NG; throws on any other value, naming it. */
export function reasoningCategory(instCategory: number): ReasoningCategory {
  const found = Number.isInteger(instCategory) ? REASONING_CATEGORIES[instCategory - 1] : undefined;
  if (!found) throw new RangeError(`CharXiv reasoning inst_category ${instCategory} does not exist (categories are 1–4)`);
  return found;
}

/** The rubric a reasoning question is graded by: numbers read off the chart and computed ones share one. */
export function reasoningFamily(category: ReasoningCategory): RubricFamily {
  switch (category) {
    case 'TC':
      return 'text-in-chart';
    case 'TG':
      return 'text-in-general';
    case 'NC':
    case 'NG':
      return 'number';
  }
}

/** A grade as given: the judge's number, or null when there is none to use (its reply failed). */
export type JudgeScore = number | null;

/** Only a grade of exactly 0 or 1 is one. */
export function isValidScore(score: JudgeScore): score is 0 | 1 {
  return score === 0 || score === 1;
}

/** What a grade counts: 1 only for a valid 1; anything else, invalid or missing, is 0. */
export function scoreValue(score: JudgeScore): 0 | 1 {
  return score === 1 ? 1 : 0;
}

export interface GradeTally {
  questions: number;
  /** Questions graded 1. */
  correct: number;
  /** Questions whose grade was neither 0 nor 1 (counted as 0). */
  invalid: number;
}

export interface GroupScore extends GradeTally {
  key: string;
  label: string;
  /** Mean × 100, rounded half-up to two decimals on the exact share; null over no questions (CharXiv prints 0 there). */
  score: number | null;
}

function tally(scores: readonly JudgeScore[]): GradeTally {
  let correct = 0;
  let invalid = 0;
  for (const score of scores) {
    correct += scoreValue(score);
    if (!isValidScore(score)) invalid += 1;
  }
  return { questions: scores.length, correct, invalid };
}

function groupScore(key: string, label: string, scores: readonly JudgeScore[]): GroupScore {
  const counts = tally(scores);
  return { key, label, ...counts, score: roundedPercent(counts.correct, counts.questions) };
}

/** One score per key, in the keys' order (a key no question is filed under scores null), each over its questions' grades. */
function scoreGroups<K extends string>(keys: readonly K[], label: (key: K) => string, entries: ReadonlyArray<{ key: K; score: JudgeScore }>): GroupScore[] {
  const groups = new Map<K, JudgeScore[]>(keys.map((key) => [key, []]));
  for (const { key, score } of entries) groups.get(key)?.push(score);
  return keys.map((key) => groupScore(key, label(key), groups.get(key) ?? []));
}

const overallScore = (grades: ReadonlyArray<{ score: JudgeScore }>) => groupScore('overall', 'Overall', grades.map((grade) => grade.score));

export interface DescriptiveScores {
  overall: GroupScore;
  /** In CharXiv's order: information extraction, enumeration, pattern recognition, counting, compositionality. */
  byGroup: GroupScore[];
  /** Q1–Q19. */
  byTemplate: GroupScore[];
}

/** CharXiv's descriptive figures from one grade per question. */
export function scoreDescriptive(grades: ReadonlyArray<{ templateId: number; score: JudgeScore }>): DescriptiveScores {
  const withTemplate = grades.map((grade) => ({ template: descriptiveTemplate(grade.templateId), score: grade.score }));
  const ids = DESCRIPTIVE_TEMPLATES.map((t) => `Q${t.id}`);
  return {
    overall: overallScore(grades),
    byGroup: scoreGroups(DESCRIPTIVE_GROUPS, (group) => DESCRIPTIVE_GROUP_LABELS[group], withTemplate.map(({ template: t, score }) => ({ key: t.group, score }))),
    byTemplate: scoreGroups(ids, (id) => id, withTemplate.map(({ template: t, score }) => ({ key: `Q${t.id}`, score }))),
  };
}

export interface ReasoningScores {
  overall: GroupScore;
  /** TC, TG, NC, NG. */
  byCategory: GroupScore[];
}

/** CharXiv's reasoning figures from one grade per question. */
export function scoreReasoning(grades: ReadonlyArray<{ category: ReasoningCategory; score: JudgeScore }>): ReasoningScores {
  return {
    overall: overallScore(grades),
    byCategory: scoreGroups(REASONING_CATEGORIES, (category) => REASONING_CATEGORY_LABELS[category], grades.map((grade) => ({ key: grade.category, score: grade.score }))),
  };
}
