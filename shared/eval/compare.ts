import type { EvalComparisonRow, EvalMode, EvalRun } from '../api/evaluations';
import { declineRateOfShares, roundedPercent, type Share } from './metrics';

/**
 * The paper's comparison tables from stored runs: per model, its latest finished run of each
 * mode. Accuracies are re-derived from counts so the decline rate never compounds rounding, and
 * each figure rounds half-up on its counts' exact rational.
 * The decline rate compares the two runs on their `same` questions only (see metrics.ts).
 */

const accuracy = (run: EvalRun | undefined) => (run ? roundedPercent(run.score.counts.correct, run.score.counts.items) : null);
/** The questions that are the factual question under an assumption, and of those the right ones. */
const sameShare = (run: EvalRun): Share => ({ part: run.score.counts.same_correct, whole: run.score.counts.same_question });
const decline = (original: EvalRun | undefined, hqa: EvalRun) => (original ? declineRateOfShares(sameShare(original), sameShare(hqa)) : null);

/** Latest finished run of each model × mode (highest id wins: ids grow with time). */
function latestDone(runs: readonly EvalRun[]): Map<string, Partial<Record<EvalMode, EvalRun>>> {
  const byModel = new Map<string, Partial<Record<EvalMode, EvalRun>>>();
  for (const run of runs) {
    if (run.status !== 'done') continue;
    const modes = byModel.get(run.model) ?? {};
    const current = modes[run.mode];
    if (!current || current.id < run.id) modes[run.mode] = run;
    byModel.set(run.model, modes);
  }
  return byModel;
}

/** The decline rate of a hypothetical run against the same model's latest finished factual run. */
export function baselineOf(run: EvalRun, runs: readonly EvalRun[]): { run_id: number; qa_accuracy: number | null; decline_rate: number | null } | null {
  if (run.mode === 'original') return null;
  const original = latestDone(runs).get(run.model)?.original;
  if (!original) return null;
  return { run_id: original.id, qa_accuracy: accuracy(original), decline_rate: decline(original, run) };
}

/** One row per model with a finished `hqa` run, best HQA accuracy first. */
export function compareModels(runs: readonly EvalRun[]): EvalComparisonRow[] {
  const rows: EvalComparisonRow[] = [];
  for (const [model, modes] of latestDone(runs)) {
    const hqa = modes.hqa;
    if (!hqa) continue;
    rows.push({
      model,
      hqa_run_id: hqa.id,
      original_run_id: modes.original?.id ?? null,
      no_image_run_id: modes.no_image?.id ?? null,
      items: hqa.score.counts.items,
      hqa_accuracy: accuracy(hqa),
      qa_accuracy: accuracy(modes.original),
      decline_rate: decline(modes.original, hqa),
      no_image_accuracy: accuracy(modes.no_image),
      by_answer_type: hqa.score.by_answer_type,
      answer_type_variance: hqa.score.answer_type_variance,
      bias_rate: hqa.score.bias_rate,
      left_out_different: hqa.score.left_out_different,
    });
  }
  return rows.sort((a, b) => (b.hqa_accuracy ?? -1) - (a.hqa_accuracy ?? -1) || a.model.localeCompare(b.model));
}
