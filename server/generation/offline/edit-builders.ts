import {
  amountText,
  balance,
  boundedAmount,
  boundedFactor,
  changeText,
  clean,
  defaultAmount,
  fits,
  givenAmount,
  isMulti,
  measure,
  subject,
  valueText,
  type PlanDraft,
  type PlanInput,
} from './edit-helpers';
import type { IntentKind } from '../../../shared/generation/proposal-intent';
import { factorPhrase, fmt, nameOf, niceAmount, niceBetween } from './phrasing';
import { pick } from './rng';
import { valueOf } from '../../../shared/table/table-facts';

/**
 * One builder per kind of change. A builder returns null when the change cannot be made on
 * this row without breaking the chart's structure (a share above 100, a pie that no longer
 * sums to 100, a fractional count); the planner then tries another row or kind.
 */
type Builder = (input: PlanInput) => PlanDraft | null;

const DEFAULT_FACTORS = [2, 2, 0.5, 1.5, 3];
/** The share of its partner's value by which a change that goes "just" past it passes it. */
const JUST_PAST = 0.02;
/** Points a moved share takes by default. */
const DEFAULT_POINTS = [2, 5, 10];

function scale(input: PlanInput): PlanDraft | null {
  const { column, row, intent, rng } = input;
  const factor = boundedFactor(input, intent.factor ?? pick(rng, DEFAULT_FACTORS));
  if (!(factor > 0) || factor === 1) return null;
  if (intent.everyRow && !column.whole && !input.facts.rowWhole) {
    if (!column.cells.every((cell) => fits(column, clean(cell.value * factor)))) return null;
    const scope = isMulti(input.facts) ? `${measure(column)} of ${nameOf(column.name)}` : `${measure(column)} in the chart`;
    // Whole numbers (students, stores) stay whole: on a second try each scaled value is rounded, said so, and written cell by cell.
    if (input.rounded && column.integer && column.cells.some((cell) => !Number.isInteger(clean(cell.value * factor)))) {
      return {
        kind: 'scale',
        edit: column.cells.map((cell) => ({ op: 'set' as const, row: cell.label, series: column.name, value: Math.round(cell.value * factor) })),
        assumption: `Suppose every ${scope} were ${factorPhrase(factor)}, rounded to whole numbers.`,
        effect: `every ${scope} is multiplied by ${fmt(factor)} and rounded`,
      };
    }
    return {
      kind: 'scale',
      edit: [{ op: 'scale', series: column.name, factor }],
      assumption: `Suppose every ${scope} were ${factorPhrase(factor)}.`,
      effect: `every ${scope} is multiplied by ${fmt(factor)}`,
    };
  }
  const before = valueOf(column, row);
  if (before === null) return null;
  const after = clean(before * factor);
  if (after === before || !fits(column, after)) return null;
  const kept = balance(input, row, after - before);
  if (!kept) return null;
  return {
    kind: 'scale',
    edit: [{ op: 'scale', row, series: column.name, factor }, ...kept.ops],
    assumption: `Suppose ${subject(input)} were ${factorPhrase(factor)}${kept.clause}.`,
    effect: `${changeText(column, row, before, after)}${kept.effect}`,
  };
}

function add(input: PlanInput): PlanDraft | null {
  const { column, row, partner, intent } = input;
  const before = valueOf(column, row);
  if (before === null) return null;
  if (intent.everyRow && intent.overtakeSeries) return shiftPast(input, before);
  const target = partner === null ? null : valueOf(column, partner);
  let delta: number;
  // "Until it exceeds the largest": the amount overtakes the partner, but the assumption states
  // the amount only — saying where the value lands ("taking it above Italy") gives a ranking away.
  if (intent.overtake && partner !== null && target !== null) {
    // "Just below the runner-up" passes it by a hair: by a tenth it would pass the next ones too.
    const margin = niceAmount(Math.abs(target) * (intent.just ? JUST_PAST : 0.1), column.integer ? 0 : column.decimals);
    delta = clean(target + intent.sign * margin - before);
    if (Math.sign(delta) !== intent.sign) return null;
  } else {
    delta = intent.sign * Math.min(givenAmount(input) ?? defaultAmount(input, before), boundedAmount(input, before));
  }
  // A bound reviewers set cannot be kept by an overtake that needs more.
  if (Math.abs(delta) > boundedAmount(input, before) + 1e-9) return null;
  if (column.integer) delta = Math.round(delta);
  if (delta === 0) return null;
  const verb = delta > 0 ? 'increased' : 'decreased';
  if (intent.everyRow && !column.whole && !input.facts.rowWhole) {
    if (!column.cells.every((cell) => fits(column, clean(cell.value + delta)))) return null;
    const scope = isMulti(input.facts) ? `${measure(column)} of ${nameOf(column.name)}` : `${measure(column)} in the chart`;
    return {
      kind: 'add',
      edit: [{ op: 'add', series: column.name, delta }],
      assumption: `Suppose every ${scope} were ${verb} by ${amountText(column, Math.abs(delta))}.`,
      effect: `every ${scope} changes by ${fmt(delta)}`,
    };
  }
  const after = clean(before + delta);
  if (!fits(column, after)) return null;
  const kept = balance(input, row, delta);
  if (!kept) return null;
  return {
    kind: 'add',
    edit: [{ op: 'add', row, series: column.name, delta }, ...kept.ops],
    assumption: `Suppose ${subject(input)} were ${verb} by ${amountText(column, Math.abs(delta))}${kept.clause}.`,
    effect: `${changeText(column, row, before, after)}${kept.effect}`,
  };
}

/**
 * "Shift one line up in every period so that it overtakes another line": the whole series gains
 * the roundest amount that takes it past the nearest series above it at this row (the row the
 * question reads comes first), so the lines cross where the question looks. The assumption says
 * the amount only: naming the line it passes would give a ranking away.
 */
function shiftPast(input: PlanInput, before: number): PlanDraft | null {
  const { facts, column, row, intent } = input;
  if (!isMulti(facts) || column.whole || facts.rowWhole) return null;
  const nearest = facts.columns
    .filter((other) => other !== column)
    .map((other) => ({ name: other.name, value: valueOf(other, row) }))
    .filter((other): other is { name: string; value: number } => other.value !== null && intent.sign * (other.value - before) > 0)
    .sort((a, b) => Math.abs(a.value - before) - Math.abs(b.value - before))[0];
  if (!nearest) return null;
  const gap = Math.abs(nearest.value - before);
  const size = niceBetween(gap, gap * 1.3);
  if (size === null) return null;
  const delta = intent.sign * (column.integer ? Math.ceil(size) : size);
  if (Math.abs(delta) > boundedAmount(input, before) + 1e-9) return null;
  if (!column.cells.every((cell) => fits(column, clean(cell.value + delta)))) return null;
  const scope = `${measure(column)} of ${nameOf(column.name)}`;
  return {
    kind: 'add',
    edit: [{ op: 'add', series: column.name, delta }],
    assumption: `Suppose every ${scope} were ${delta > 0 ? 'increased' : 'decreased'} by ${amountText(column, Math.abs(delta))}.`,
    effect: `every ${scope} changes by ${fmt(delta)}, passing ${nameOf(nearest.name)} at ${nameOf(row)}`,
  };
}

function move(input: PlanInput): PlanDraft | null {
  const { facts, column, row, partner, rng } = input;
  const before = valueOf(column, row);
  if (before === null) return null;
  const partnerValue = partner === null ? null : valueOf(column, partner);
  // "until the two are equal": half the gap moves.
  const toEqual = input.intent.match && partnerValue !== null && !facts.rowWhole && !input.intent.withinRow ? clean((before - partnerValue) / 2) : null;
  const partnerBase = partner === null ? before : (valueOf(column, partner) ?? before);
  const amount = Math.min(toEqual ?? givenAmount(input) ?? (column.percent ? pick(rng, DEFAULT_POINTS) : defaultAmount(input, before)), boundedAmount(input, before), boundedAmount(input, partnerBase));
  if (!(amount > 0)) return null;
  if (facts.rowWhole || input.intent.withinRow) {
    // Within one bar of a 100% chart, from one segment to another, so the bar still sums to 100:
    // out of this segment when it holds enough, else into it from the largest segment.
    const others = facts.columns
      .filter((other) => other !== column && valueOf(other, row) !== null)
      .sort((a, b) => (valueOf(b, row) ?? 0) - (valueOf(a, row) ?? 0));
    const other = before >= amount ? pick(rng, others.length > 0 ? others : [column]) : others[0];
    if (!other || other === column) return null;
    const [from, to] = before >= amount ? [column, other] : [other, column];
    const fromBefore = valueOf(from, row) ?? 0;
    const toBefore = valueOf(to, row) ?? 0;
    if (!fits(from, clean(fromBefore - amount)) || !fits(to, clean(toBefore + amount))) return null;
    return {
      kind: 'move',
      edit: [
        { op: 'add', row, series: from.name, delta: -amount },
        { op: 'add', row, series: to.name, delta: amount },
      ],
      assumption: column.percent
        ? `Suppose ${amountText(column, amount)} of ${nameOf(row)} moved from ${nameOf(from.name)} to ${nameOf(to.name)}.`
        : `Suppose ${fmt(amount)} of ${nameOf(row)}'s ${nameOf(from.name)} value moved to its ${nameOf(to.name)} value.`,
      effect: `${nameOf(row)}'s ${nameOf(from.name)} goes from ${valueText(from, fromBefore)} to ${valueText(from, clean(fromBefore - amount))} and its ${nameOf(to.name)} from ${valueText(to, toBefore)} to ${valueText(to, clean(toBefore + amount))}`,
    };
  }
  const partnerBefore = partner === null ? null : valueOf(column, partner);
  if (partner === null || partnerBefore === null) return null;
  const from = clean(before - amount);
  const to = clean(partnerBefore + amount);
  if (!fits(column, from) || !fits(column, to)) return null;
  const where = isMulti(facts) ? ` in ${nameOf(column.name)}` : '';
  const assumption = column.percent
    ? `Suppose ${amountText(column, amount)} moved from ${nameOf(row)} to ${nameOf(partner)}${where}.`
    : `Suppose ${fmt(amount)} were taken from ${nameOf(row)} and added to ${nameOf(partner)}${where}.`;
  return {
    kind: 'move',
    edit: [
      { op: 'add', row, series: column.name, delta: -amount },
      { op: 'add', row: partner, series: column.name, delta: amount },
    ],
    assumption,
    effect: `${changeText(column, row, before, from)} and ${changeText(column, partner, partnerBefore, to)}`,
  };
}

function swap(input: PlanInput): PlanDraft | null {
  const { facts, column, row, partner } = input;
  const a = valueOf(column, row);
  const b = partner === null ? null : valueOf(column, partner);
  if (partner === null || a === null || b === null || a === b) return null;
  if (facts.rowWhole) {
    // Swapping one series between two bars of 100% would break both: only whole bars swap, which is not "within one series".
    if (input.intent.oneSeries) return null;
    return {
      kind: 'swap',
      edit: [{ op: 'swap', rows: [row, partner] }],
      assumption: `Suppose the bars of ${nameOf(row)} and ${nameOf(partner)} were swapped, every segment included.`,
      effect: `${nameOf(row)} takes ${nameOf(partner)}'s values (${nameOf(column.name)}: ${valueText(column, b)}) and ${nameOf(partner)} takes ${nameOf(row)}'s (${valueText(column, a)})`,
    };
  }
  const assumption = isMulti(facts)
    ? `Suppose ${nameOf(row)} and ${nameOf(partner)} swapped their ${nameOf(column.name)} values.`
    : `Suppose the ${measure(column)}s of ${nameOf(row)} and ${nameOf(partner)} were swapped.`;
  return {
    kind: 'swap',
    edit: [{ op: 'swap', rows: [row, partner], series: column.name }],
    assumption,
    effect: `${nameOf(row)} becomes ${valueText(column, b)} and ${nameOf(partner)} becomes ${valueText(column, a)}`,
  };
}

function swapSeries(input: PlanInput): PlanDraft | null {
  const { facts, column, row, rng } = input;
  const a = valueOf(column, row);
  if (a === null || column.whole) return null;
  const others = facts.columns.filter((other) => {
    const b = valueOf(other, row);
    return other !== column && b !== null && b !== a && fits(other, a) && fits(column, b);
  });
  if (others.length === 0) return null;
  const other = pick(rng, others);
  const b = valueOf(other, row) ?? 0;
  return {
    kind: 'swap_series',
    edit: [
      { op: 'set', row, series: column.name, value: b },
      { op: 'set', row, series: other.name, value: a },
    ],
    assumption: `Suppose the ${nameOf(column.name)} and ${nameOf(other.name)} values of ${nameOf(row)} were swapped.`,
    effect: `${nameOf(row)}'s ${nameOf(column.name)} becomes ${valueText(column, b)} and its ${nameOf(other.name)} becomes ${valueText(other, a)}`,
  };
}

function set(input: PlanInput): PlanDraft | null {
  const { column, row, partner, intent, rng } = input;
  const before = valueOf(column, row);
  if (before === null) return null;
  const partnerValue = partner === null ? null : valueOf(column, partner);
  const values = column.cells.map((cell) => cell.value);
  const decimals = column.integer ? 0 : column.decimals;
  const given = givenAmount(input);
  let after: number;
  if (intent.match && partnerValue !== null) after = partnerValue;
  else if (given !== null) after = given;
  else if (rng() < 0.6) after = clean(Math.max(...values) + niceAmount(Math.abs(Math.max(...values)) * 0.2, decimals));
  else after = clean(Math.min(...values) - niceAmount(Math.abs(Math.min(...values)) * 0.5, decimals));
  if (after === before || !fits(column, after)) return null;
  if (Math.abs(after - before) > boundedAmount(input, before) + 1e-9) return null;
  const kept = balance(input, row, clean(after - before), intent.match ? partner : null);
  if (!kept) return null;
  const to = intent.match && partner !== null ? `the same as that of ${nameOf(partner)} (${valueText(column, after)})` : valueText(column, after);
  return {
    kind: 'set',
    edit: [{ op: 'set', row, series: column.name, value: after }, ...kept.ops],
    assumption: `Suppose ${subject(input)} were ${to}${kept.clause}.`,
    effect: `${changeText(column, row, before, after)}${kept.effect}`,
  };
}

import { addRow, removeRow, removeSeries, trend } from './row-builders';

export const BUILDERS: Record<IntentKind, Builder> = {
  trend,
  swap,
  swap_series: swapSeries,
  add_row: addRow,
  remove_row: removeRow,
  remove_series: removeSeries,
  move,
  scale,
  add,
  set,
};
