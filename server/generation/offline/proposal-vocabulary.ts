import type { ChartType } from '../../../shared/domain/chart-types';
import type { IntentKind } from '../../../shared/generation/proposal-intent';

/**
 * The offline engine's Stage 1 vocabulary: general counterfactual operations per chart type,
 * written so that intent.ts reads back the operation each one names (a test holds them to
 * it). Slots vary the rank, the amount and the closing clause, so a pool can grow by dozens
 * before ROUGE-L near-duplicates dominate. No template names an entity: proposals are general.
 */
export interface ProposalTemplate {
  kind: IntentKind;
  text: string;
}

/**
 * Words that fill `{slot}`s; `{pos2}` always differs from `{pos}`. `{low}` and `{high}` pair
 * up in "raise … until it exceeds …", so the change has somewhere to go.
 */
export type Slots = Record<'pos' | 'low' | 'high' | 'mult' | 'multed' | 'pct' | 'pts' | 'frac' | 'axis' | 'tail', readonly string[]>;

/**
 * Closing clauses that say what the change is for. They avoid every word intent.ts reads
 * (ranks, verbs of change, "every"), so they never change the operation a template names, and
 * they never say what to ask: the item keeps its factual question, so "and ask for the average"
 * would be a promise no item keeps.
 */
export const TAILS = [
  '',
  '',
  ', as a thought experiment',
  ', in a what-if version of the chart',
  ', so that memorised figures no longer fit',
  ', so that the answer must be recomputed from the chart',
  ', to test reading rather than recall',
  ', to check whether a reader relies on memory or on the chart',
];

const COMMON = {
  mult: ['Double', 'Triple', 'Halve'],
  multed: ['doubled', 'tripled', 'halved'],
  // A strict reviewer takes a change of a whole series past a third for an implausible premise.
  pct: ['10', '20', '25', '30'],
  pts: ['2', '3', '5', '8', '10', '15'],
  frac: ['quarter', 'third', 'half', 'tenth'],
  axis: ['x', 'y', 'horizontal', 'vertical'],
  tail: TAILS,
} as const;

const RANKS = ['largest', 'smallest', 'second-largest', 'second-smallest', 'median'];

const CATEGORY_SLOTS: Slots = {
  ...COMMON,
  pos: RANKS,
  low: ['smallest', 'second-smallest', 'median'],
  high: ['largest', 'second-largest'],
};

const BAR_SLOTS: Slots = {
  ...CATEGORY_SLOTS,
  pos: [...RANKS, 'tallest', 'shortest'],
  low: ['smallest', 'second-smallest', 'median', 'shortest'],
  high: ['largest', 'second-largest', 'tallest'],
};

const TIME_SLOTS: Slots = {
  ...COMMON,
  pos: ['first', 'last', 'earliest', 'latest', 'highest', 'lowest', 'peak', 'middle'],
  low: ['lowest', 'first', 'last', 'middle', 'earliest', 'latest'],
  high: ['highest', 'peak'],
};

const t = (kind: IntentKind, text: string): ProposalTemplate => ({ kind, text });

/**
 * Changes of the element the factual question reads, by a modest amount: every question has
 * one, whatever its rank, and a count stays whole (the amount is rounded to the column).
 */
function askedTemplates(noun: string): ProposalTemplate[] {
  return [
    // Worded apart, so the pool's near-duplicate filter (ROUGE-L) keeps all three.
    t('add', `Raise the ${noun} the question asks about by a noticeable amount{tail}`),
    t('add', `Let the value asked about in the question fall noticeably{tail}`),
    t('scale', `Suppose the ${noun} the question names were {multed}{tail}`),
    t('swap', `Swap the value of the ${noun} the question asks about with that of the {pos} ${noun}{tail}`),
  ];
}

function barTemplates(noun: string): ProposalTemplate[] {
  return [
    ...askedTemplates(noun),
    t('scale', `{mult} the value of the {pos} ${noun}{tail}`),
    t('scale', `Suppose the {pos} ${noun} were {multed}{tail}`),
    t('scale', `Reduce the {pos} ${noun} by {pct} percent{tail}`),
    t('scale', `Let the {pos} ${noun} grow by a {frac}{tail}`),
    t('scale', `Increase every ${noun} by {pct} percent{tail}`),
    t('add', `Raise the {low} ${noun} until it exceeds the {high} ${noun}{tail}`),
    t('add', `Lower the {high} ${noun} until it falls below the {low} one{tail}`),
    t('swap', `Swap the values of the {pos} and the {pos2} ${noun}s{tail}`),
    t('swap', `Exchange the heights of the {pos} ${noun} and the {pos2} ${noun}{tail}`),
    t('remove_row', `Remove the {pos} ${noun} from the chart{tail}`),
    t('remove_row', `Suppose the {pos} ${noun} were left out of the chart{tail}`),
    t('set', `Set the {pos} ${noun} equal to the {pos2} ${noun}{tail}`),
    t('set', `Set the {pos} ${noun} to zero{tail}`),
    t('add_row', `Add a new ${noun} slightly above the current maximum{tail}`),
    t('add_row', `Add a new ${noun} whose value sits at the average of the others{tail}`),
  ];
}

function timeTemplates(noun: string, whole: string): ProposalTemplate[] {
  return [
    ...askedTemplates(noun),
    // Two neighbouring periods trading values: a step the series has taken, moved by one period.
    t('swap', `Swap the value of the ${noun} the question asks about with that of the ${noun} next to it{tail}`),
    t('trend', `Suppose the series grew by a constant amount every period after the first{tail}`),
    t('trend', `Replace the ${whole} by a straight line from its first value, rising steadily{tail}`),
    t('scale', `{mult} the value at the {pos} ${noun} of the ${whole}{tail}`),
    t('scale', `Let the {pos} ${noun} drop by {pct} percent{tail}`),
    t('scale', `Lift every ${noun} of the ${whole} by {pct} percent{tail}`),
    t('add', `Raise the {low} ${noun} until it exceeds the {high} ${noun}{tail}`),
    t('add', `Lower the {high} ${noun} until it falls below the {low} one{tail}`),
    t('swap', `Swap the values of the {pos} and {pos2} ${noun}s{tail}`),
    t('remove_row', `Remove the {pos} ${noun} from the ${whole}{tail}`),
    t('add_row', `Add a next period that continues the most recent change{tail}`),
    t('set', `Set the {pos} ${noun} equal to the {pos2} ${noun}{tail}`),
  ];
}

export const PROPOSAL_TEMPLATES: Record<ChartType, ProposalTemplate[]> = {
  vertical_bar: barTemplates('bar'),
  horizontal_bar: barTemplates('bar').map((template) => ({ ...template, text: template.text.replace('heights', 'lengths') })),
  other: barTemplates('entry').map((template) => ({ ...template, text: template.text.replace(/\bentrys\b/g, 'entries') })),
  line: timeTemplates('point', 'line'),
  area: timeTemplates('period', 'area'),
  pie: [
    ...askedTemplates('slice').filter((template) => template.kind !== 'swap'),
    t('swap', 'Swap the share of the slice the question asks about with that of the {pos} slice{tail}'),
    t('move', 'Move {pts} percentage points from the {pos} slice to the {pos2} slice{tail}'),
    t('move', 'Transfer {pts} points of share from the {pos} slice to the {pos2} one{tail}'),
    t('scale', 'Suppose the {pos} slice {multed} its share, the difference coming from the {pos2} slice{tail}'),
    t('scale', 'Shrink the {pos} slice by a {frac} and hand the freed share to the {pos2} slice{tail}'),
    t('add', 'Let the {pos} slice gain {pts} percentage points at the expense of the {pos2} slice{tail}'),
    t('remove_row', 'Remove the {pos} slice and give its share to the {pos2} slice{tail}'),
    t('swap', 'Swap the shares of the {pos} and the {pos2} slices{tail}'),
    t('add_row', 'Add a new slice of {pts} percent carved out of the {pos} slice{tail}'),
    t('set', 'Set the {pos} slice to {pct} percent and rebalance the {pos2} slice so the pie still sums to 100{tail}'),
  ],
  grouped_bar: [
    ...askedTemplates('bar'),
    t('swap_series', 'Swap the values of two series for the {pos} category{tail}'),
    t('swap_series', "Exchange the two series' bars within the {pos} group{tail}"),
    t('scale', '{mult} the {pos} bar of one series{tail}'),
    t('scale', 'Increase one series by {pct} percent across all categories{tail}'),
    t('add', 'Raise the {low} bar of one series until it exceeds the {high} bar of that series{tail}'),
    t('swap', 'Within one legend group, swap the {pos} and {pos2} categories{tail}'),
    t('remove_row', 'Remove the {pos} category from the chart together with its bars{tail}'),
    t('add_row', "Add a new category whose bars sit at each series' average{tail}"),
    t('set', 'Set the {pos} bar of one series equal to the {pos2} bar{tail}'),
  ],
  stacked_bar: [
    t('move', 'Move {pts} points from one segment to another within the {pos} bar{tail}'),
    t('swap', 'Swap two whole bars, the {pos} and the {pos2}{tail}'),
    t('swap_series', 'Swap two segments within the {pos} bar{tail}'),
    t('scale', '{mult} one segment of the {pos} bar and rebalance the rest of that bar{tail}'),
    t('move', 'Increase one segment of the {pos} bar by {pts} percentage points, taken from another segment{tail}'),
    t('remove_row', 'Remove the {pos} bar from the chart{tail}'),
    t('add_row', 'Add a new bar with the same split as the {pos} bar{tail}'),
    t('set', 'Set one segment of the {pos} bar to {pct} percent and rebalance the others{tail}'),
  ],
  scatter: [
    ...askedTemplates('point'),
    t('scale', 'Push the point with the {pos} {axis} value up by {pct} percent{tail}'),
    t('scale', '{mult} the {axis} value of the {pos} point{tail}'),
    t('add', 'Lower the {axis} value of the {high} point until it falls below the {low} point{tail}'),
    t('remove_row', 'Remove the {pos} point from the plot as an outlier{tail}'),
    t('swap', 'Swap the {axis} values of the {pos} and {pos2} points{tail}'),
    t('add_row', 'Add a new point at the average of both measures{tail}'),
    t('set', 'Set the {axis} value of the {pos} point equal to that of the {pos2} point{tail}'),
  ],
};

export function slotsFor(chartType: ChartType): Slots {
  if (chartType === 'line' || chartType === 'area') return TIME_SLOTS;
  return chartType === 'pie' || chartType === 'scatter' || chartType === 'other' ? CATEGORY_SLOTS : BAR_SLOTS;
}
