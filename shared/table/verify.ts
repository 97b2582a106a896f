import { z } from 'zod';
import { answersAgree, goldAnswerAgrees, resultsAgree, roundForTable } from './answer-compare';
import { AnswerTypeSchema, classifyAnswer } from './answers';
import { lintItem } from './item-lint';
import { constraintFindings } from '../generation/proposal-constraints';
import { FindingSchema, type Finding } from './lint';
import type { DataTable } from './model';
import { formatAnswer, parseProgram, type Scalar } from './program';
import { subjectCharts, traceItem, type TraceSubject } from './trace-item';

/**
 * The verifier: applies an item's edit to its chart's table, reruns its program on the
 * edited table and on the unedited one, and compares: the recomputed answer with the item's
 * (labels as labels, numbers with ChartQA's tolerance), and the answer before with the answer
 * after (does the assumption matter at all?). It lints the edit for the chart type and the
 * item for what its words give away, and checks the edit against the proposal's operation.
 * Stored with each item so reviewers see where the model went wrong; advice, never a verdict.
 * The stages themselves are `traceItem`'s (trace-item.ts), which the try-it panel shows too.
 */

/** How an answer is compared with the recomputed one: a model's relaxed, a person's (gold) at its own precision. */
export const AnswerRuleSchema = z.enum(['relaxed', 'precision']);
export type AnswerRule = z.infer<typeof AnswerRuleSchema>;

export const VerifierErrorSchema = z.object({
  stage: z.enum(['edit', 'program']),
  message: z.string(),
  /** Program errors: 0-based offset into the program text. */
  position: z.number().int().nonnegative().optional(),
});
export type VerifierError = z.infer<typeof VerifierErrorSchema>;

// Fields added after the first version default, so results stored before them still parse.
export const VerifierResultSchema = z.object({
  /** The program's answer on the edited table; null when the edit or the program failed. */
  recomputed_answer: z.string().nullable(),
  /** The type of the item's answer (the one the benchmark ships). */
  answer_type: AnswerTypeSchema,
  /** Whether the recomputed answer agrees with the item's; null when nothing was recomputed. */
  match: z.boolean().nullable(),
  lint: z.array(FindingSchema),
  error: VerifierErrorSchema.nullable(),
  /** The program's answer on the unedited table (for a `same` item: the factual answer). */
  original_answer: z.string().nullable().default(null),
  /** Both answers computed and equal: the assumption leaves the answer as it was. */
  answer_unchanged: z.boolean().nullable().default(null),
  /** The edit performs the proposal's operation; null without a proposal or when its operation is unreadable. */
  proposal_consistent: z.boolean().nullable().default(null),
  /**
   * How `match` compared: `relaxed` (ChartQA's 5 % on numbers) for a model's answer, `precision`
   * (at the answer's own precision, `goldAnswerAgrees`) for a person's — a hand-written item's.
   */
  match_rule: AnswerRuleSchema.default('relaxed'),
});
export type VerifierResult = z.infer<typeof VerifierResultSchema>;

/** One chart (`table`, `chartType`, `title`) or a group's charts in order (`group`, each with its title). */
export type VerifyInput = TraceSubject & {
  /**
   * Untrusted: validated here. Null or left out means no edit (a factual question: nothing is
   * linted); `[]` is an edit that assumes nothing, which the lint reports as `no_change`.
   */
  edit?: unknown;
  program: string;
  /** The item's answer, as the model (or a reviewer) wrote it. */
  answer: string;
  /** `precision` for a person's answer (gold: never the model tolerance); default `relaxed`. */
  answerRule?: AnswerRule;
  /** The assumption's text, for the item lint (an answer it states). */
  assumption?: string;
  /** The chart's title, for the item lint (what a series measures); a group's charts carry their own. */
  title?: string;
  /** The item's question (its assumption first, as items store it), for the reading checks. */
  question?: string;
  /** Settings `max_change_share`: how far an edit may move a value (change-magnitude.ts). */
  maxChangeShare?: number;
  /** The text of the item's proposal, for the consistency check. */
  proposal?: string | null;
};

export function verifyItem(input: VerifyInput): VerifierResult {
  const { edit, program, answer, assumption = '', proposal = null, question = '', answerRule = 'relaxed' } = input;
  const answer_type = classifyAnswer(answer);
  const failed = (error: VerifierError, lint: Finding[] = []): VerifierResult => ({
    recomputed_answer: null,
    answer_type,
    match: null,
    lint,
    error,
    original_answer: null,
    answer_unchanged: null,
    proposal_consistent: null,
    match_rule: answerRule,
  });

  // An item stores "no edit" as null; the trace reads only undefined that way.
  const trace = traceItem({ ...input, edit: edit ?? undefined, program, proposal });
  if (trace.edited === null) return failed({ stage: 'edit', message: trace.edit.error.message }, trace.lint);
  // Lints and rounding look at the chart the assumption edits (chart 1 without an edit).
  const charts = subjectCharts(input);
  const editedAt = trace.edit.kind === 'applied' ? trace.edit.chart : 1;
  const subject = charts[editedAt - 1] ?? (charts[0] as (typeof charts)[number]);
  const { table, chartType } = subject;
  const title = input.group ? (subject.title ?? '') : (input.title ?? '');
  const lint = [...(trace.lint ?? [])];
  const consistency = trace.consistency;
  if (consistency?.consistent === false) lint.push({ code: 'proposal_inconsistent', severity: 'warning', message: consistency.message });
  const after = trace.edited;
  if (!after.ok) return { ...failed({ stage: 'program', ...after.error }, lint), proposal_consistent: consistency?.consistent ?? null };

  const tables = [...charts.map((chart) => chart.table), ...trace.tables];
  const recomputed = shown(after.value, program, table);
  const before = trace.original;
  const unchanged = before?.ok ? resultsAgree(before.value, after.value, tables) : null;
  if (unchanged && !lint.some((finding) => finding.code === 'no_change')) {
    lint.push({
      code: 'answer_unchanged',
      severity: 'warning',
      message: `the program gives ${before?.ok ? shown(before.value, program, table) : '?'} on the original table and ${shown(after.value, program, table)} on the edited one: the assumption does not change the answer`,
    });
  }
  if (proposal && trace.edit.kind === 'applied') {
    lint.push(...constraintFindings({ proposal, original: table, edited: trace.table, edit: trace.edit.edit, program, assumption }));
  }
  lint.push(
    ...lintItem({
      chartType,
      title,
      assumption,
      program,
      answer: answer.trim() === '' ? recomputed : answer,
      original: table,
      edited: trace.table,
      question: askedPart(question, assumption),
      edit: trace.edit.kind === 'applied' ? trace.edit.edit : null,
      ...(input.maxChangeShare === undefined ? {} : { maxChangeShare: input.maxChangeShare }),
    }),
  );
  return {
    recomputed_answer: recomputed,
    answer_type,
    match:
      answerRule === 'precision'
        ? goldAnswerAgrees(after.value, answer)
        : answersAgree(typeof after.value === 'number' ? Number(recomputed) : after.value, answer, tables),
    lint,
    error: null,
    original_answer: before?.ok ? shown(before.value, program, table) : null,
    answer_unchanged: unchanged,
    proposal_consistent: consistency?.consistent ?? null,
    match_rule: answerRule,
  };
}

/** The question without the assumption items put in front of it. */
export function askedPart(question: string, assumption: string): string {
  const q = question.trim();
  const a = assumption.trim();
  return a !== '' && q.startsWith(a) ? q.slice(a.length).trim() : q;
}

/**
 * A result as the benchmark shows it: a number the program does not round itself is rounded
 * to the table's precision plus two digits, so float noise never becomes an answer.
 */
function shown(value: Scalar, program: string, table: DataTable): string {
  if (typeof value !== 'number' || roundsItself(program)) return formatAnswer(value);
  return formatAnswer(roundForTable(value, table));
}

function roundsItself(program: string): boolean {
  try {
    const tree = parseProgram(program);
    return tree.kind === 'call' && tree.name.toLowerCase() === 'round';
  } catch {
    return false;
  }
}
