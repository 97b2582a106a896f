import { changeBound, readConstraints } from './proposal-constraints';
/**
 * Reading a proposal's operation from its words. Proposals are free text (hand-written
 * seeds, an LLM's, the offline engine's own), so this is keyword matching, deliberately
 * simple. What it cannot perform faithfully ("merge the two smallest slices", "re-normalise
 * the rest", "hold every later point at that level") reads as no operation (`kind: null`,
 * with the phrase in `unsupported`): an item that did something else would not do what its
 * proposal says.
 */

export const INTENT_KINDS = ['trend', 'swap', 'swap_series', 'add_row', 'remove_row', 'remove_series', 'move', 'scale', 'add', 'set'] as const;
export type IntentKind = (typeof INTENT_KINDS)[number];

/** A row named by its rank or position rather than its label, so proposals stay general. */
export const ROW_SELECTORS = ['max', 'min', 'second_max', 'second_min', 'median', 'middle', 'first', 'last'] as const;
/** `median` ranks by value; `middle` is the middle position on a time axis (by value elsewhere). */
export type RowSelector = (typeof ROW_SELECTORS)[number];

export interface Intent {
  kind: IntentKind | null;
  /** For scale: the factor the words name (doubled → 2, "by 20 percent" lower → 0.8). */
  factor: number | null;
  /** A plain number the proposal names (points to move, a value to set, a step). */
  amount: number | null;
  /** The number is given in percentage points ("5 points", "to 20 percent"): it fits only percentage columns. */
  amountInPoints: boolean;
  /** -1 when the proposal lowers a value. */
  sign: 1 | -1;
  /** The change applies to every row of a series ("every bar", "all points"). */
  everyRow: boolean;
  /** Rows by rank or position, in order of mention: the first is the one changed, the second its partner. */
  selectors: RowSelector[];
  /** "until it exceeds the largest": the changed row should pass its partner. */
  overtake: boolean;
  /**
   * "Shift one line up in every period so that it overtakes another line": a whole series moved
   * by the one amount that takes it past another series where the question reads it.
   */
  overtakeSeries: boolean;
  /** "Until it falls just below the runner-up": the changed row passes its partner by a hair, not by a tenth. */
  just: boolean;
  /** "equal to", "the same as": the changed row takes its partner's value. */
  match: boolean;
  /** "at the average": a new row's value is the column's mean. */
  average: boolean;
  /**
   * "One more period that repeats the change between its last two points", "continues the most
   * recent change": a new period's value is the last one plus the last step (2·last − previous).
   */
  continues: boolean;
  /** Scatter: which measure ("x" → the first series, "y" → the second). */
  axis: 0 | 1 | null;
  /** The change acts on the element the factual question asks about ("the bar the question asks about"). */
  asked: boolean;
  /** The change stays within one series ("within a single series"): a swap of two rows' values in it, not of whole bars. */
  oneSeries: boolean;
  /** A move between the segments of one bar ("within the same bar"), not between two bars. */
  withinRow: boolean;
  /** "Rebalance the rest of that bar", "the total stays unchanged": what one cell gains another gives up. */
  keepTotal: boolean;
  /** The phrase naming what the rules cannot perform faithfully; `kind` is then null. */
  unsupported: string | null;
  /** A bound reviewers set ("changing no value by more than 20 percent" → 0.2): no cell may move by more. */
  maxChange: number | null;
  /** "With that of the period next to it": the second row is the first's neighbour on the axis. */
  neighbour: boolean;
}

/**
 * Operations beyond the edit builders: proportional rebalancing, merges, holding values from
 * a point on, conditional subsets, amounts relative to another value, ranks among segments.
 */
const UNSUPPORTED: RegExp[] = [
  /\bmerg\w*\b|\bcombin\w* (the|two|both)\b/,
  /\bre-?normali[sz]\w*|\bproportional\w*|\bpro rata\b/,
  /\bstop(s|ped)? (growing|rising|falling|declining)|\bheld at\b|\bhold\w* (at|constant|flat)|\bflatten\w*/,
  /\bhalfway\b|\bfrom the middle\b|\bonwards?\b|\bthereafter\b/,
  /\bfarthest\b|\bclosest\b|\boutlying\b/,
  /\b(every|each|all)\b[^.]*\b(below|above|under|over) the (median|average|mean)\b/,
  // Holding the last value; repeating the last *change* continues the trend (`continues`).
  /\bkeeps? its (most recent|last|latest|previous)\b|\brepeats? the (last|latest|most recent)\b(?! (change|step|increase|decrease|rise|fall|trend)\b)/,
  /\bto the level of\b|\bjust before it\b|\bthe previous period\b/,
  /\b(half|third|quarter|fifth|tenth|percent|%|share|portion|part|fraction) of (that|the|its|this) (series'?s? )?(largest|highest|smallest|lowest|maximum|minimum|average|mean|total)\b/,
  /\b(largest|smallest|biggest|highest|lowest|second-\w+) segment\b/,
  /\bso that its (vertical|horizontal|x|y) value\b/,
  /\breplace\w* (the|a|each|every) .* with\b/,
];

const CONTINUES =
  /\b(continu\w*|repeat\w*|extend\w*|carr(y|ies|ying) on) (the|its) (most recent|last|latest|final) (change|step|trend|increase|decrease|rise|fall)\b|\brepeat\w* the (change|step) between (its|the) (last|latest|final) two\b|\bsame (change|step) as (the|its) (last|latest|most recent)\b/;

const WORD_FACTORS: [RegExp, number][] = [
  [/\b(doubl\w*|twice|two times)\b/, 2],
  [/\b(tripl\w*|three times)\b/, 3],
  [/\b(quadrupl\w*|four times)\b/, 4],
  [/\b(halv\w*|in half)\b/, 0.5],
];
const FRACTIONS: Record<string, number> = { half: 0.5, third: 1 / 3, quarter: 0.25, fifth: 0.2, tenth: 0.1 };

const DECREASE = /\b(decreas\w*|reduc\w*|lower(s|ed|ing)?|fall\w*|fell|drop\w*|declin\w*|cut\w*|shrink\w*|shrank|los(e|es|t|ing)|down|sheds?|halv\w*)\b/;
const INCREASE = /\b(increas\w*|rais\w*|add(s|ed|ing)?|grow\w*|grew|rises?|rose|boost\w*|gain\w*|climb\w*|up|extend\w*|jump\w*|lift\w*)\b/;
const NEW_ROW =
  /\b(new|additional|extra|next|following|one more|final|further)\s+(?:\w+\s+){0,2}?(category|categories|slice|bar|column|row|year|period|entry|point|group|item|segment|quarter|month|season|data point)\b/;

const SELECTORS: [RowSelector, RegExp][] = [
  ['second_max', /\bsecond[- ](largest|highest|biggest|greatest|tallest)\b|\brunner-?up\b/g],
  ['second_min', /\bsecond[- ](smallest|lowest|shortest)\b/g],
  ['max', /\b(largest|biggest|highest|greatest|tallest|top|peak|maximum|leading)\b/g],
  ['min', /\b(smallest|lowest|shortest|least|minimum|bottom|trough|fewest)\b/g],
  ['median', /\b(median|mid-sized|middle-sized)\b/g],
  ['middle', /\b(middle|midpoint|mid-point)\b/g],
  ['first', /\b(first|earliest|oldest|opening)\b/g],
  ['last', /\b(last|latest|final|most recent|newest)\b/g],
];

export function parseIntent(text: string): Intent {
  // Reviewers' constraints ("changing no value by more than 20 percent") bound the operation; they are not it.
  const { operation } = readConstraints(text);
  const maxChange = changeBound(text);
  const t = ` ${operation.toLowerCase().replace(/\s+/g, ' ')} `;
  const sign = firstChangeSign(t);
  // "by 20 percent" is a relative change; "to 20 percent" and "20 percentage points" are amounts.
  const byPercent = /\bby (\d+(?:\.\d+)?)\s*(?:%|percent)(?!age)(?!\s*points?)/;
  const timesPattern = /\b(?:(\d+(?:\.\d+)?)\s*times|multipl\w* by (\d+(?:\.\d+)?))\b/;
  const percent = byPercent.exec(t);
  const fraction = /\bby (?:a |one )?(half|third|quarter|fifth|tenth)\b/.exec(t);
  const times = timesPattern.exec(t);
  const wordFactor = WORD_FACTORS.find(([pattern]) => pattern.test(t))?.[1] ?? null;

  let factor: number | null = null;
  const timesValue = times?.[1] ?? times?.[2];
  if (timesValue) factor = Number(timesValue);
  else if (wordFactor !== null && !(wordFactor === 0.5 && fraction)) factor = wordFactor;
  else if (fraction?.[1]) factor = 1 + sign * (FRACTIONS[fraction[1]] ?? 0);
  else if (percent?.[1]) factor = 1 + (sign * Number(percent[1])) / 100;

  const rest = t.replace(byPercent, ' ').replace(timesPattern, ' ');
  const amountMatch = /(?<![\w.])(\d+(?:\.\d+)?)(?!\d|\.\d)/.exec(rest);
  const intent: Intent = {
    kind: null,
    factor,
    amount: amountMatch?.[1] ? Number(amountMatch[1]) : /\bzero\b/.test(t) ? 0 : null,
    amountInPoints: amountMatch !== null && /^\s*(%|percent|points?\b|pp\b)/.test(rest.slice(amountMatch.index + amountMatch[0].length)),
    sign,
    everyRow: /\b(every|all|each|whole series|entire series|across the board)\b/.test(t) && !/\bafter the first\b/.test(t),
    selectors: selectorsIn(t),
    overtake: /\b(until|overtakes?|exceeds?|surpass\w*|passes|above the)\b/.test(t),
    just: /\b(just|barely|narrowly|slightly) (below|above|under|over|past|beyond|ahead|behind)\b/.test(t),
    overtakeSeries: /\b(overtakes?|exceeds?|surpass\w*|pass(es)?|crosses) (another|a second|the other|one other) (line|series|layer)\b/.test(t),
    match: /\b(equal\w*|same as|match\w*)\b/.test(t),
    // Plural too: "a point whose coordinates are the averages of all points" is at the mean.
    average: /\b(averages?|mean)\b/.test(t),
    continues: CONTINUES.test(t),
    axis: /\b(x|horizontal)[- ](value|axis|coordinate|measure)/.test(t) ? 0 : /\b(y|vertical)[- ](value|axis|coordinate|measure)/.test(t) ? 1 : null,
    asked: /\b(the question asks about|asked about in the question|the question names)\b/.test(t),
    oneSeries: /\b(within|in|of) (a|one|the same|a single) (single )?series\b|\bwithin one legend group\b/.test(t),
    withinRow: /\b(segments?|within (the|one|a) (bar|group|column)|same bar|of that bar)\b/.test(t),
    keepTotal: /\brebalanc\w*|\b(total|sum)s? (stays?|remains?|is kept|unchanged)\b|\bstill sums?\b/.test(t),
    unsupported: UNSUPPORTED.map((pattern) => pattern.exec(t)?.[0] ?? null).find((phrase) => phrase !== null) ?? null,
    maxChange,
    neighbour: /\b(the (point|period|year|bar|value) next to it|a neighbouring (point|period|year)|its neighbour)\b/.test(t),
  };
  const kind = kindOf(t, intent);
  // "Each" or "every" with a change the builders make on one cell only (set, swap, move) is not that change.
  if (intent.unsupported === null && intent.everyRow && kind !== null && !['scale', 'add', 'remove_series', 'add_row'].includes(kind)) intent.unsupported = 'a change in every row';
  // "Shift one line up … so that it overtakes another line" is sized by the other line; past a rank of its own rows, by nothing the builders can size.
  if (intent.unsupported === null && intent.everyRow && intent.overtake && !(kind === 'add' && intent.overtakeSeries)) intent.unsupported = 'overtaking another series everywhere';
  intent.kind = intent.unsupported === null ? kind : null;
  return intent;
}

function kindOf(t: string, intent: Intent): IntentKind | null {
  // A trend grows by a constant step each period; "shift … up by a constant amount in every period" adds one amount everywhere.
  if (/\b(steadily|linear(ly)?|straight line)\b/.test(t) || /\b(grew|grow\w*|ris\w*|rose|increas\w*|fell|fall\w*|declin\w*) by a constant (amount|step|rate)\b/.test(t)) return 'trend';
  if (/\b(swap\w*|exchang\w*|switch\w*|interchang\w*|trade places)\b/.test(t)) {
    // "within a single series" swaps two rows of it; "two series", "the series' bars", "segments" swap series.
    if (/\bwithin (a|one|the) (single )?series\b/.test(t)) return 'swap';
    return /\b(two series|both series|series'|segments|measures|groups' values|two bars of)\b/.test(t) ? 'swap_series' : 'swap';
  }
  if (/\b(remov\w*|delet\w*|drop\w*|exclud\w*|omit\w*)\b.*\b(series|legend|layer|line)\b/.test(t) && !/\bpoints? from (the|a) line\b/.test(t)) return 'remove_series';
  if (NEW_ROW.test(t) || /\badd(s|ed|ing)? (a|an|one) (new )?(category|slice|bar|column|row|year|period|entry|point|segment)\b/.test(t)) return 'add_row';
  if (/\b(remov\w*|delet\w*|exclud\w*|omit\w*|eliminat\w*|disappear\w*|left out|leave out|drop(ped)? (out|from the chart))\b/.test(t)) return 'remove_row';
  // "Shift one line up by a constant amount": every point gains the one amount, nothing is moved from elsewhere.
  if (intent.everyRow && /\bshift\w* (one|a|the|each|every) (line|series|layer|curve) (up|down|upwards?|downwards?)\b/.test(t)) return 'add';
  if (/\b(mov(e|ed|es|ing)|transfer\w*|shift\w*|redistribut\w*|realloc\w*|hand(s|ed)? over)\b/.test(t)) return 'move';
  // "Increase one segment by 15, taken from another segment": a move within the bar, not a lone add.
  if (intent.withinRow && /\b(taken|coming|drawn) from\b|\bat the expense of\b/.test(t)) return 'move';
  if (/\b(set|sets)\b/.test(t) || (intent.match && !intent.overtake)) return 'set';
  if (intent.factor !== null && !/\b(\d+(\.\d+)?|percentage) points?\b/.test(t)) return 'scale';
  if (INCREASE.test(t) || DECREASE.test(t)) return 'add';
  if (/\b(becomes?|reach\w*|to zero)\b/.test(t)) return 'set';
  return null;
}

/** +1 unless the first change word is a decrease ("halve X and add the freed share to Y" lowers). */
function firstChangeSign(t: string): 1 | -1 {
  const d = DECREASE.exec(t)?.index ?? -1;
  const i = INCREASE.exec(t)?.index ?? -1;
  if (d === -1) return 1;
  return i === -1 || d < i ? -1 : 1;
}

function selectorsIn(t: string): RowSelector[] {
  let text = t;
  const found: { at: number; selector: RowSelector }[] = [];
  for (const [selector, pattern] of SELECTORS) {
    for (const match of text.matchAll(pattern)) {
      found.push({ at: match.index, selector });
      // Blank the match so "second-largest" is not read again as "largest".
      text = text.slice(0, match.index) + ' '.repeat(match[0].length) + text.slice(match.index + match[0].length);
    }
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.selector);
}
