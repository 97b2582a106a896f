import type { DataTable } from '../model';
import { MAX_EVAL_STEPS, ProgramError } from './errors';
import { formatAnswer, type Scalar } from './format';
import { evaluateProgram } from './interpreter';
import { parseProgram } from './parser';
import { describeValue } from './values';

export { formatAnswer, formatNumber, ANSWER_DECIMALS, type Scalar } from './format';
export { MAX_EVAL_STEPS, MAX_NESTING_DEPTH, MAX_PROGRAM_LENGTH, ProgramError } from './errors';
export { KNOWN_FUNCTIONS } from './functions';
export { parseProgram, type Node } from './parser';

export interface ProgramErrorInfo {
  message: string;
  /** 0-based offset into the program text (UTF-16 code units), where one applies. */
  position?: number;
}

export type ProgramResult = { ok: true; value: Scalar; answer: string } | { ok: false; error: ProgramErrorInfo };

/** Shown instead of an internal failure's details, which stay out of results stored with items. */
export const INTERNAL_PROGRAM_ERROR = 'internal error while evaluating the program';

/**
 * Parses and evaluates an untrusted program over `table` (or a chart group's tables, in
 * position order). Never throws: every failure, including limits being hit, comes back as
 * `{ ok: false, error }`.
 */
export function runProgram(table: DataTable | readonly DataTable[], source: string, options: { maxSteps?: number } = {}): ProgramResult {
  try {
    const tree = parseProgram(source);
    const value = evaluateProgram(tree, table, options.maxSteps ?? MAX_EVAL_STEPS);
    if (typeof value === 'object') {
      return {
        ok: false,
        error: {
          message: `the result is ${describeValue(value)}; an answer is one value — reduce the list with sum, avg, max, argmax, count, …`,
          position: tree.position,
        },
      };
    }
    return { ok: true, value, answer: formatAnswer(value) };
  } catch (error) {
    if (error instanceof ProgramError) {
      return { ok: false, error: error.position === undefined ? { message: error.message } : { message: error.message, position: error.position } };
    }
    return { ok: false, error: { message: INTERNAL_PROGRAM_ERROR } };
  }
}
