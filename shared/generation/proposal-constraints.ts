import { z } from 'zod';
import { isPercentCell } from '../table/cell';
import { diffTables } from '../table/edit-apply';
import type { Edit } from '../table/edit';
import { labelText } from '../table/edit-apply';
import { findLabelIndex, normalizeLabel } from '../table/labels';
import type { Finding } from '../table/lint';
import type { DataTable } from '../table/model';
import { runProgram } from '../table/program';
import { programReads } from '../table/program/reads';
import { nearHundred, sumOf } from '../table/wholes';

/**
 * What reviewers' feedback makes a proposal promise, as clauses the reviser appends to its text
 * (server/reflection/feedback-rules.ts). The text stays the one source: the model reads the
 * clause in its Stage-2 request, the offline rules read it back here (and size their changes by
 * it), and the verifier holds every item of the proposal to it — so a revision changes what comes
 * next instead of rewording the same items.
 */

export const PROPOSAL_CONSTRAINTS = ['bounded_change', 'not_asked_value', 'answer_unnamed', 'keep_whole', 'single_answer'] as const;
export const ProposalConstraintSchema = z.enum(PROPOSAL_CONSTRAINTS);
export type ProposalConstraint = z.infer<typeof ProposalConstraintSchema>;

/** The largest relative change a bounded proposal allows, and the points a share may move. */
export const BOUNDED_PERCENT = 20;
export const BOUNDED_POINTS = 5;

/** The clause each constraint is written as; `CONSTRAINT_PATTERNS` reads it back, tolerant of the model's rewording. */
export const CONSTRAINT_CLAUSES: Record<ProposalConstraint, string> = {
  bounded_change: `changing no value by more than ${BOUNDED_PERCENT} percent (${BOUNDED_POINTS} percentage points for shares)`,
  not_asked_value: 'without setting the value the question asks for',
  answer_unnamed: 'without naming the answer in the assumption',
  keep_whole: 'taking the change from the other parts so the shares still sum to 100',
  single_answer: 'so that the question keeps a single answer',
};

const CONSTRAINT_PATTERNS: Record<ProposalConstraint, RegExp> = {
  bounded_change: /,?\s*changing no value by more than \d+(?:\.\d+)? percent(?: \(\d+(?:\.\d+)? percentage points for shares\))?/i,
  not_asked_value: /,?\s*without setting the (very )?value the question asks for/i,
  answer_unnamed: /,?\s*without naming the answer in the assumption/i,
  keep_whole: /,?\s*taking the change from the other parts so the shares still sum to 100/i,
  single_answer: /,?\s*so that the question keeps a single answer/i,
};

/** The constraints a proposal's text carries, and its text without them (the operation alone, for intent.ts). */
export function readConstraints(text: string): { constraints: ProposalConstraint[]; operation: string } {
  let operation = text;
  const constraints: ProposalConstraint[] = [];
  for (const id of PROPOSAL_CONSTRAINTS) {
    if (!CONSTRAINT_PATTERNS[id].test(operation)) continue;
    constraints.push(id);
    operation = operation.replace(CONSTRAINT_PATTERNS[id], '');
  }
  return { constraints, operation };
}

/** The relative bound a bounded proposal sets (0.2), or null. */
export function changeBound(text: string): number | null {
  const match = /changing no value by more than (\d+(?:\.\d+)?) percent/i.exec(text);
  return match?.[1] ? Number(match[1]) / 100 : null;
}

export interface ConstraintInput {
  proposal: string;
  original: DataTable;
  edited: DataTable;
  edit: Edit;
  program: string;
  assumption: string;
}

/** Each constraint the proposal carries that the item breaks, as an error the generated item is not stored with. */
export function constraintFindings(input: ConstraintInput): Finding[] {
  const { constraints } = readConstraints(input.proposal);
  const findings: Finding[] = [];
  const broken = (message: string) => findings.push({ code: 'proposal_constraint', severity: 'error', message: `the proposal, revised from reviewers' feedback, says ${message}` });
  for (const id of constraints) {
    const problem = CHECKS[id](input);
    if (problem) broken(problem);
  }
  return findings;
}

const CHECKS: Record<ProposalConstraint, (input: ConstraintInput) => string | null> = {
  bounded_change: ({ proposal, original, edited }) => {
    const bound = changeBound(proposal) ?? BOUNDED_PERCENT / 100;
    for (const change of diffTables(original, edited)) {
      if (change.before === null || change.after === null) continue;
      const s = original.series.indexOf(change.series);
      const percent = isPercentCell(original, original.rows.findIndex((r) => r.label === change.row), s);
      const moved = Math.abs(change.after - change.before);
      const within = percent ? moved <= BOUNDED_POINTS + 1e-9 : moved <= bound * Math.abs(change.before) + 1e-9;
      if (!within) return `"changing no value by more than ${Math.round(bound * 100)} percent", but ${JSON.stringify(change.row)} / ${JSON.stringify(change.series)} goes from ${change.before} to ${change.after}`;
    }
    return null;
  },
  not_asked_value: ({ edited, edit, program }) => {
    // The value asked for is a cell the program reads by name (a lookup, a difference of two
    // cells); a cell among a whole series' values is one the reader still compares.
    const reads = programReads(program, edited);
    if (reads === null) return null;
    const read = new Set(reads.cells.map(([r, s]) => `${r},${s}`));
    const rows = edited.rows.map((row) => row.label);
    for (const op of edit) {
      if (op.op !== 'set') continue;
      const r = findLabelIndex(rows, labelText(op.row));
      const s = op.series === undefined ? (edited.series.length === 1 ? 0 : -1) : findLabelIndex(edited.series, labelText(op.series));
      if (read.has(`${r},${s}`)) return `"without setting the value the question asks for", but the edit sets ${JSON.stringify(labelText(op.row))}, which the question reads`;
    }
    return null;
  },
  answer_unnamed: ({ edited, program, assumption }) => {
    const result = runProgram(edited, program);
    if (!result.ok || typeof result.value !== 'string') return null;
    const name = normalizeLabel(result.value);
    const said = ` ${normalizeLabel(assumption).replace(/["“”.,;:!?()]/g, ' ')} `;
    return name.length > 0 && said.includes(` ${name} `) ? `"without naming the answer in the assumption", but the assumption names ${JSON.stringify(result.value)}, the answer` : null;
  },
  keep_whole: ({ original, edited }) => {
    for (const name of original.series) {
      const s = original.series.indexOf(name);
      const e = edited.series.indexOf(name);
      if (e === -1 || !nearHundred(sumOf(original.rows.map((row) => row.values[s])))) continue;
      const after = sumOf(edited.rows.map((row) => row.values[e]));
      if (!nearHundred(after)) return `"the shares still sum to 100", but ${JSON.stringify(name)} now sums to ${Math.round(after * 100) / 100}`;
    }
    if (original.series.length < 2) return null;
    for (const row of original.rows) {
      const after = edited.rows.find((r) => r.label === row.label);
      if (!after || !nearHundred(sumOf(row.values))) continue;
      if (!nearHundred(sumOf(after.values))) return `"the shares still sum to 100", but the row ${JSON.stringify(row.label)} now sums to ${Math.round(sumOf(after.values) * 100) / 100}`;
    }
    return null;
  },
  single_answer: ({ edited, program }) => {
    const match = /^arg(max|min)\((.*)\)$/s.exec(program.trim());
    if (!match?.[2]) return null;
    const ties = runProgram(edited, `count(where(${match[2]}, "==", ${match[1]}(${match[2]})))`);
    return ties.ok && typeof ties.value === 'number' && ties.value > 1 ? '"so that the question keeps a single answer", but two rows share the winning value' : null;
  },
};
