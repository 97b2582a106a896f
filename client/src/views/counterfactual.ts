import type { DataTable } from '@shared/table/model';
import { traceEdit } from '@shared/table/trace-item';
import { editOutcomeOf, type EditOutcome } from './edit-outcome';

/**
 * The item's edit applied to its chart's table with the shared engine (as the verifier did):
 * the table the hypothetical question is about, and what changed. Over a group (its tables in
 * position order) the edit names the chart it changes, and the outcome says which (`chart`).
 */
export function counterfactualOf(tables: DataTable | readonly DataTable[], edit: unknown): EditOutcome {
  // A stored item writes "no edit" as null; the trace reads only undefined that way.
  return editOutcomeOf(traceEdit(tables, edit ?? undefined));
}
