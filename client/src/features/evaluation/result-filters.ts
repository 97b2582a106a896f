import { z } from 'zod';
import { EVAL_OUTCOMES, EvalModeSchema, type EvalMode, type EvalResultsQuery } from '@shared/api/evaluations';
import { AnswerTypeSchema, type AnswerType } from '@shared/table/answers';
import { parseId } from '../../ui/parse-id';

export const RESULT_PAGE_SIZE = 25;

export type EvalOutcome = (typeof EVAL_OUTCOMES)[number];
export const EvalOutcomeSchema = z.enum(EVAL_OUTCOMES);

/** A run's results list state, kept in the URL so a filtered view can be linked and survives a reload. */
export type ResultFilters = {
  /** One of a run's conditions; '' the run's first. */
  condition: EvalMode | '';
  outcome: EvalOutcome;
  answerType: AnswerType | '';
  q: string;
  page: number;
};

export function readResultFilters(params: URLSearchParams): ResultFilters {
  const outcome = EvalOutcomeSchema.safeParse(params.get('outcome'));
  const type = AnswerTypeSchema.safeParse(params.get('type'));
  const condition = EvalModeSchema.safeParse(params.get('condition'));
  return {
    condition: condition.success ? condition.data : '',
    outcome: outcome.success ? outcome.data : 'all',
    answerType: type.success ? type.data : '',
    q: params.get('q') ?? '',
    page: parseId(params.get('page')) ?? 1,
  };
}

/** Applies a change to the URL state; any change other than the page starts again at page 1. */
export function writeResultFilters(current: ResultFilters, change: Partial<ResultFilters>): URLSearchParams {
  const next: ResultFilters = { ...current, page: 1, ...change };
  const params = new URLSearchParams();
  if (next.condition) params.set('condition', next.condition);
  if (next.outcome !== 'all') params.set('outcome', next.outcome);
  if (next.answerType) params.set('type', next.answerType);
  if (next.q.trim()) params.set('q', next.q.trim());
  if (next.page > 1) params.set('page', String(next.page));
  return params;
}

export function toResultsQuery(filters: ResultFilters): EvalResultsQuery {
  return {
    page: filters.page,
    page_size: RESULT_PAGE_SIZE,
    condition: filters.condition || undefined,
    outcome: filters.outcome,
    answer_type: filters.answerType || undefined,
    q: filters.q.trim() || undefined,
  };
}
