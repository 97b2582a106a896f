import { labelsMatch } from '../labels';
import { ProgramError } from './errors';
import { describeValue, finite, type ListItem, type NumberList, type Value } from './values';

/**
 * Arithmetic on numbers and, element by element, on lists: `series("A") - series("B")` is
 * the gap per row, `abs(row("X") - row("Y"))` the distance per series. A missing cell stays
 * missing. Two lists combine only when they carry the same labels in the same order.
 */

/** Counts work done so the interpreter's step budget covers list operations too. */
export type Tick = (count: number) => void;

/** An element operation; `label` names the list element for error messages. */
export type NumberOperation = (a: number, b: number, label: string | null) => number;

export function combine(left: Value, right: Value, operation: NumberOperation, what: string, position: number, tick: Tick): Value {
  if (typeof left === 'number' && typeof right === 'number') return finite(operation(left, right, null), position);
  if (isNumberList(left) && typeof right === 'number') {
    return mapItems(left, (value, label) => operation(value, right, label), position, tick);
  }
  if (typeof left === 'number' && isNumberList(right)) {
    return mapItems(right, (value, label) => operation(left, value, label), position, tick);
  }
  if (isNumberList(left) && isNumberList(right)) return zipLists(left, right, operation, what, position, tick);
  const culprit = typeof left === 'number' || isNumberList(left) ? right : left;
  throw new ProgramError(`${what} needs numbers or lists of numbers, not ${describeValue(culprit)}`, position);
}

/** Applies a one-number operation to a number or to every element of a list. */
export function mapNumeric(value: Value, operation: (a: number) => number, what: string, position: number, tick: Tick): Value {
  if (typeof value === 'number') return finite(operation(value), position);
  if (isNumberList(value)) return mapItems(value, (a) => operation(a), position, tick);
  throw new ProgramError(`${what} needs a number or a list of numbers, not ${describeValue(value)}`, position);
}

export function divide(position: number): NumberOperation {
  return (a, b, label) => {
    if (b === 0) throw new ProgramError(label === null ? 'division by zero' : `division by zero at ${JSON.stringify(label)}`, position);
    return a / b;
  };
}

export const ARITHMETIC: Record<'+' | '-' | '*', NumberOperation> = {
  '+': (a, b) => a + b,
  '-': (a, b) => a - b,
  '*': (a, b) => a * b,
};

function isNumberList(value: Value): value is NumberList {
  return typeof value === 'object' && value.kind === 'list';
}

function mapItems(list: NumberList, operation: (value: number, label: string) => number, position: number, tick: Tick): NumberList {
  tick(list.items.length);
  const items: ListItem[] = list.items.map((item) => ({
    label: item.label,
    value: item.value === null ? null : finite(operation(item.value, item.label), position),
  }));
  return { kind: 'list', over: list.over, items };
}

function zipLists(left: NumberList, right: NumberList, operation: NumberOperation, what: string, position: number, tick: Tick): NumberList {
  const mismatch =
    left.over !== right.over ||
    left.items.length !== right.items.length ||
    left.items.some((item, i) => !labelsMatch(item.label, right.items[i]?.label ?? ''));
  if (mismatch) {
    const got =
      left.over === right.over
        ? `lists with different labels (${left.items.length} and ${right.items.length} values)`
        : `a list over ${left.over} and a list over ${right.over}`;
    throw new ProgramError(`${what} combines two lists only when they have the same labels (two series, or two rows); got ${got}`, position);
  }
  tick(left.items.length);
  const items = left.items.map((item, i) => {
    const other = right.items[i]?.value ?? null;
    const value = item.value === null || other === null ? null : finite(operation(item.value, other, item.label), position);
    return { label: item.label, value };
  });
  return { kind: 'list', over: left.over, items };
}
