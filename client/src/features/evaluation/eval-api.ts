import { keepPreviousData, skipToken, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  evalApi,
  type EvalRunDetailResponseSchema,
  type EvalRunListResponseSchema,
  type EvalResultsQuery,
  type EvalBreakdown,
  type EvalRun,
  type ImportEvalRequest,
  type StartEvalRequest,
} from '@shared/api/evaluations';
import { call } from '../../api/http';
import { queryKeys } from '../../api/query-keys';

type EvalRunListResponse = z.infer<typeof EvalRunListResponseSchema>;
export type EvalRunDetailResponse = z.infer<typeof EvalRunDetailResponseSchema>;

/** Every evaluation run, newest first; kept current by `eval.*` pushes (see api/socket.ts). */
export function useEvalRuns() {
  return useQuery({
    queryKey: queryKeys.evals.lists(),
    queryFn: () => call(evalApi.list),
  });
}

/** Questions every compared model got wrong (hardest, or mislabelled). */
export function useUnsolvedQuestions() {
  return useQuery({
    queryKey: queryKeys.evals.unsolved(),
    queryFn: () => call(evalApi.unsolved),
  });
}

/** One row per model: the paper's Table 3 and Table 4. */
export function useEvalComparison() {
  return useQuery({
    queryKey: queryKeys.evals.comparison(),
    queryFn: () => call(evalApi.comparison),
  });
}

/** One run and its baseline; `null` (an id that cannot exist) fetches nothing. */
export function useEvalRun(id: number | null) {
  return useQuery({
    queryKey: queryKeys.evals.detail(id ?? 0),
    queryFn: id === null ? skipToken : () => call(evalApi.get, { params: { id } }),
  });
}

export function useEvalResults(id: number, query: EvalResultsQuery) {
  return useQuery({
    queryKey: queryKeys.evals.results(id, query),
    queryFn: () => call(evalApi.results, { params: { id }, query }),
    // A page being refetched as the run answers keeps its rows (and any expanded one) on screen.
    placeholderData: keepPreviousData,
  });
}

/** Until the run's detail arrives: nothing finished yet. */
const EMPTY_BREAKDOWN: EvalBreakdown = {
  by_chart_type: [],
  answer_changed: { items: 0, correct: 0, accuracy: null },
  answer_kept: { items: 0, correct: 0, accuracy: null },
};

/**
 * After a start, an import, a resume or a cancel. A factual-baseline run can finish before its POST
 * answers, so the response may be older than pushes already applied: it only fills what is
 * not cached yet, and the list and the run are fetched again.
 */
function rememberEvalRun(queryClient: QueryClient, run: EvalRun): void {
  queryClient.setQueryData<EvalRunListResponse>(queryKeys.evals.lists(), (old) =>
    old && !old.runs.some((r) => r.id === run.id) ? { runs: [run, ...old.runs] } : old,
  );
  queryClient.setQueryData<EvalRunDetailResponse>(queryKeys.evals.detail(run.id), (old) => old ?? { run, baseline: null, breakdown: EMPTY_BREAKDOWN, rules: [] });
  void queryClient.invalidateQueries({ queryKey: queryKeys.evals.lists() });
  void queryClient.invalidateQueries({ queryKey: queryKeys.evals.detail(run.id) });
  void queryClient.invalidateQueries({ queryKey: queryKeys.evals.comparison() });
}

export function useStartEval() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: StartEvalRequest) => call(evalApi.create, { body: request }),
    onSuccess: ({ run }) => rememberEvalRun(queryClient, run),
  });
}

export function useImportEval() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: ImportEvalRequest) => call(evalApi.import, { body: request }),
    onSuccess: ({ run }) => rememberEvalRun(queryClient, run),
  });
}

export type EvalRunAction = 'resume' | 'cancel';

/** The run page's controls: resume a paused run, cancel an unfinished one. */
export function useEvalRunAction(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: EvalRunAction) => call(evalApi[action], { params: { id } }),
    onSuccess: ({ run }) => rememberEvalRun(queryClient, run),
  });
}
