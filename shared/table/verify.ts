import { z } from 'zod';
import type { ChartType } from '../domain/chart-types';
import { AnswerTypeSchema, classifyAnswer, relaxedCorrect } from './answers';
import { applyEdit, parseEdit, type Edit } from './edit';
import { FindingSchema, lintEdit } from './lint';
import type { DataTable } from './model';
import { runProgram } from './program';

/**
 * The verifier: applies an item's edit to its chart's table, reruns its program on the
 * edited table and compares the result with the item's answer. Stored with each item so
 * reviewers see where the model went wrong; advice, never a verdict.
 */

export const VerifierErrorSchema = z.object({
  stage: z.enum(['edit', 'program']),
  message: z.string(),
  /** Program errors: 0-based offset into the program text. */
  position: z.number().int().nonnegative().optional(),
});
export type VerifierError = z.infer<typeof VerifierErrorSchema>;

export const VerifierResultSchema = z.object({
  /** The program's answer on the edited table; null when the edit or the program failed. */
  recomputed_answer: z.string().nullable(),
  /** The type of the item's answer (the one the benchmark ships). */
  answer_type: AnswerTypeSchema,
  /** relaxedCorrect(recomputed, item answer); null when nothing was recomputed. */
  match: z.boolean().nullable(),
  lint: z.array(FindingSchema),
  error: VerifierErrorSchema.nullable(),
});
export type VerifierResult = z.infer<typeof VerifierResultSchema>;

export interface VerifyInput {
  table: DataTable;
  chartType: ChartType;
  /**
   * Untrusted: validated here. Null or left out means no edit (a factual question: nothing is
   * linted); `[]` is an edit that assumes nothing, which the lint reports as `no_change`.
   */
  edit?: unknown;
  program: string;
  /** The item's answer, as the model (or a reviewer) wrote it. */
  answer: string;
}

export function verifyItem({ table, chartType, edit, program, answer }: VerifyInput): VerifierResult {
  const answer_type = classifyAnswer(answer);
  const failed = (error: VerifierError, lint: VerifierResult['lint'] = []): VerifierResult => ({
    recomputed_answer: null,
    answer_type,
    match: null,
    lint,
    error,
  });

  const hasEdit = edit !== undefined && edit !== null;
  let ops: Edit = [];
  if (hasEdit) {
    const parsed = parseEdit(edit);
    if (!parsed.ok) return failed({ stage: 'edit', message: parsed.error.message });
    ops = parsed.edit;
  }
  const applied = applyEdit(table, ops);
  if (!applied.ok) {
    return failed({ stage: 'edit', message: applied.error.message }, lintEdit(chartType, table, null, ops, [applied.error]));
  }
  const lint = hasEdit ? lintEdit(chartType, table, applied.table, ops) : [];
  const result = runProgram(applied.table, program);
  if (!result.ok) return failed({ stage: 'program', ...result.error }, lint);
  return {
    recomputed_answer: result.answer,
    answer_type,
    match: relaxedCorrect(result.answer, answer),
    lint,
    error: null,
  };
}
