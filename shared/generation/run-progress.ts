import { FINISHED_RUN_STATUSES, type RunStatus } from '../domain/generation';

/**
 * How far a generation run is, as a figure that never goes backwards. A run's task total grows
 * while it plans: Stage 1's tasks first, then — once Stage 1's proposals exist — Stage 2's, so a
 * share of the total so far fell from 22 % of 9 tasks to 10 % of 89. Until the plan is complete
 * no share is claimed (`planning`); after it the total is fixed and settled tasks only grow, but
 * for one case: a pause for an unreachable endpoint puts its last failed tasks back in the queue
 * to be tried again. The figure then holds the share it had reached and names those tasks as
 * `retrying` until they settle again.
 */

export type RunProgressState = 'planning' | 'working' | 'finished';

export interface RunProgressInput {
  status: RunStatus;
  tasks_total: number;
  tasks_done: number;
  tasks_failed: number;
  /** Every task of the run is planned: the total will not grow. */
  plan_complete: boolean;
}

export interface RunProgress {
  state: RunProgressState;
  done: number;
  failed: number;
  /** The tasks planned so far (while `planning`, Stage 1's only). */
  total: number;
  /** Tasks settled either way, done or failed. */
  settled: number;
  /** Whole percent of the total settled, never more than the tasks allow; null while planning. */
  percent: number | null;
  /** Failed tasks put back in the queue (a pause for the endpoint) since the figure last counted them settled. */
  retrying: number;
}

function floorPercent(part: number, whole: number): number {
  return whole > 0 ? Math.floor((100 * Math.min(part, whole)) / whole) : 0;
}

/**
 * The run's progress; `previous`, the figure last shown for the same run, keeps it from going
 * backwards. A planning run claims no percent; a finished one shows its counts as they ended.
 */
export function runProgress(run: RunProgressInput, previous: RunProgress | null = null): RunProgress {
  const finished = FINISHED_RUN_STATUSES.includes(run.status);
  const settled = run.tasks_done + run.tasks_failed;
  const base = { done: run.tasks_done, failed: run.tasks_failed, total: run.tasks_total, settled, retrying: 0 };
  if (!run.plan_complete && !finished) return { ...base, state: 'planning', percent: null };
  const percent = floorPercent(settled, run.tasks_total);
  const state: RunProgressState = finished ? 'finished' : 'working';
  // Only a figure over the same fixed total can be held: a planning figure claimed no share.
  if (previous === null || previous.percent === null || previous.total !== run.tasks_total || previous.settled <= settled) {
    return { ...base, state, percent };
  }
  return { ...base, state, percent: Math.max(previous.percent, percent), settled: previous.settled, retrying: previous.settled - settled };
}
