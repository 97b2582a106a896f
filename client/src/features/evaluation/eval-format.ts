import { FINISHED_EVAL_RUN_STATUSES, type EvalEngine, type EvalMode, type EvalRun, type EvalRunStatus } from '@shared/api/evaluations';
import { formatHalfUp } from '@shared/eval/decimal-round';
import { PERCENT_DECIMALS } from '@shared/eval/metrics';
import type { AnswerType } from '@shared/table/answers';

export const MODE_LABELS: Record<EvalMode, string> = {
  hqa: 'Hypothetical',
  original: 'Factual (ChartQA baseline)',
  no_image: 'No image (control)',
  counterfactual_image: 'Counterfactual image',
  drawn_original: 'Drawn original (style control)',
};

/** What each mode asks, completing a sentence that starts with the mode's label. */
export const MODE_HINTS: Record<EvalMode, string> = {
  hqa: 'asks the hypothetical questions, with the chart.',
  original: 'asks the factual questions the items came from: the accuracy the decline rate is measured against.',
  no_image: 'asks the hypothetical questions without the chart: what the model answers from the text alone.',
  counterfactual_image: 'asks the factual questions on the edited table drawn as a chart, scored against the hypothetical answers: the assumption seen, not imagined.',
  drawn_original: 'asks the factual questions on the original table drawn the same way: the style control for the counterfactual image.',
};

export const ENGINE_LABELS: Record<EvalEngine, string> = {
  openai: 'LLM (OpenAI API)',
  'factual-baseline': 'factual baseline (no LLM)',
  imported: 'imported predictions',
};

export const ANSWER_TYPE_LABELS: Record<AnswerType, string> = {
  integer: 'Integer',
  decimal: 'Decimal',
  boolean: 'Boolean',
  text: 'Text',
};

/**
 * A score in percent as the paper prints it ("71.25%"), or a dash when there was nothing to
 * score. The server already rounds to this many places (half-up, as the paper); fixed decimals
 * keep columns aligned, and a figure with more places still rounds half-up on its decimal value.
 */
export function formatScore(value: number | null): string {
  return value === null ? '—' : `${formatHalfUp(value, PERCENT_DECIMALS)}%`;
}

/** The per-answer-type variance is in percent², so it carries no `%`. */
export function formatVariance(value: number | null): string {
  return value === null ? '—' : formatHalfUp(value, PERCENT_DECIMALS);
}

/** Queued, running or paused: its score is so far, and it can still be cancelled. */
export function isUnfinished(status: EvalRunStatus): boolean {
  return !FINISHED_EVAL_RUN_STATUSES.includes(status);
}

/** Questions finished either way (answered or failed), out of the run's snapshot. */
export function finishedCount(run: Pick<EvalRun, 'items_answered' | 'items_failed'>): number {
  return run.items_answered + run.items_failed;
}
