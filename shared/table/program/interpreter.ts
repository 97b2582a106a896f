import type { DataTable } from '../model';
import { ARITHMETIC, combine, divide } from './arithmetic';
import { MAX_EVAL_STEPS, ProgramError } from './errors';
import { BUILTINS, chartNumber, KNOWN_FUNCTIONS, type Arg, type Runtime } from './functions';
import type { Node } from './parser';
import { COMPARATORS, describeValue, valuesEqual, type Value } from './values';

/**
 * Tree-walking evaluation of a parsed program over one table, or over a chart group's tables
 * (in position order). The language has no loops, variables or recursion, so work is bounded
 * by program size times table size; the step budget still caps it so a huge table cannot turn
 * a short program into a long request.
 *
 * In a group a program names the chart it reads: `chart(2, max(series("Sales")))` evaluates
 * its second argument on chart 2, and `value(2, "2019", "Africa")` reads one cell of it. A
 * table function outside `chart()` fails there, since guessing chart 1 would hide a mistake.
 */
export function evaluateProgram(node: Node, tables: DataTable | readonly DataTable[], maxSteps = MAX_EVAL_STEPS): Value {
  const group: readonly DataTable[] = Array.isArray(tables) ? tables : [tables as DataTable];
  let steps = 0;
  let position = node.position;
  // 1-based; null in a group outside chart(), where no chart is implied.
  let currentChart: number | null = group.length === 1 ? 1 : null;
  const chartTable = (chart: number, at: number): DataTable => {
    const table = group[chart - 1];
    if (table) return table;
    const there = group.length === 1 ? 'the item has one chart' : `the group has charts 1 to ${group.length}`;
    throw new ProgramError(`there is no chart ${chart}: ${there}`, at);
  };
  const runtime: Runtime = {
    get table() {
      if (currentChart !== null) return chartTable(currentChart, position);
      throw new ProgramError(
        `this item spans ${group.length} charts: name the chart, as in chart(1, …) or value(1, row, series)`,
        position,
      );
    },
    chartTable,
    tick(count) {
      steps += count;
      if (steps > maxSteps) throw new ProgramError(`the program needs more than ${maxSteps} evaluation steps`, position);
    },
  };

  const evaluate = (current: Node): Value => {
    position = current.position;
    runtime.tick(1);
    switch (current.kind) {
      case 'number':
      case 'string':
      case 'boolean':
        return current.value;
      case 'negate':
        return combine(-1, evaluate(current.operand), ARITHMETIC['*'], 'unary -', current.position, runtime.tick);
      case 'not':
        return !booleanOperand(evaluate(current.operand), 'not', current.operand.position);
      case 'call':
        return call(current);
      case 'binary':
        return binary(current);
    }
  };

  const binary = (current: Extract<Node, { kind: 'binary' }>): Value => {
    const { operator, position: at } = current;
    if (operator === 'and' || operator === 'or') {
      // Short-circuit, so `count(x) > 0 and avg(x) > 5` never averages an empty list.
      const left = booleanOperand(evaluate(current.left), operator, current.left.position);
      if (operator === 'and' ? !left : left) return left;
      return booleanOperand(evaluate(current.right), operator, current.right.position);
    }
    const left = evaluate(current.left);
    const right = evaluate(current.right);
    switch (operator) {
      case '+':
      case '-':
      case '*':
        return combine(left, right, ARITHMETIC[operator], operator, at, runtime.tick);
      case '/':
        return combine(left, right, divide(at), '/', at, runtime.tick);
      case '==':
        return valuesEqual(left, right, at);
      case '!=':
        return !valuesEqual(left, right, at);
      default:
        return compareNumbers(operator, left, right, at);
    }
  };

  const call = (current: Extract<Node, { kind: 'call' }>): Value => {
    if (current.name === 'if') return conditional(current);
    if (current.name === 'chart') return onChart(current);
    const builtin = BUILTINS[current.name];
    if (!builtin || !Object.hasOwn(BUILTINS, current.name)) {
      throw new ProgramError(`unknown function "${current.name}"; the functions are ${KNOWN_FUNCTIONS.join(', ')}`, current.position);
    }
    checkArity(current, builtin.signature, builtin.minArgs, builtin.maxArgs);
    const args: Arg[] = current.args.map((arg) => ({ value: evaluate(arg), position: arg.position }));
    position = current.position;
    return builtin.call(args, runtime, current.position);
  };

  const conditional = (current: Extract<Node, { kind: 'call' }>): Value => {
    checkArity(current, 'if(condition, then, else)', 3, 3);
    const [condition, then, otherwise] = current.args as [Node, Node, Node];
    return booleanOperand(evaluate(condition), 'if', condition.position) ? evaluate(then) : evaluate(otherwise);
  };

  // The chart's expression is evaluated lazily, with that chart current, like if()'s branches.
  const onChart = (node: Extract<Node, { kind: 'call' }>): Value => {
    checkArity(node, 'chart(n, expression)', 2, 2);
    const [which, expression] = node.args as [Node, Node];
    const chart = chartNumber({ value: evaluate(which), position: which.position });
    chartTable(chart, which.position);
    const outer = currentChart;
    currentChart = chart;
    try {
      return evaluate(expression);
    } finally {
      currentChart = outer;
    }
  };

  return evaluate(node);
}

function checkArity(node: Extract<Node, { kind: 'call' }>, signature: string, min: number, max: number): void {
  const count = node.args.length;
  if (count >= min && count <= max) return;
  const expected = min === max ? `${min}` : max === Number.POSITIVE_INFINITY ? `at least ${min}` : `${min} to ${max}`;
  throw new ProgramError(`${node.name}() takes ${expected} argument${expected === '1' ? '' : 's'} — ${signature} — but got ${count}`, node.position);
}

function booleanOperand(value: Value, operator: string, position: number): boolean {
  if (typeof value === 'boolean') return value;
  throw new ProgramError(`${operator} needs true or false (a comparison), not ${describeValue(value)}`, position);
}

function compareNumbers(operator: '>' | '<' | '>=' | '<=', left: Value, right: Value, position: number): boolean {
  if (typeof left !== 'number' || typeof right !== 'number') {
    const culprit = typeof left !== 'number' ? left : right;
    const hint = typeof culprit === 'object' ? '; to keep the elements of a list that pass a test, use where(list, ">", number)' : '';
    throw new ProgramError(`${operator} compares numbers, not ${describeValue(culprit)}${hint}`, position);
  }
  return COMPARATORS[operator](left, right);
}
