import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RunStatus } from '../domain/generation';
import { runProgress, type RunProgress, type RunProgressInput } from './run-progress';

const run = (counts: Partial<RunProgressInput>): RunProgressInput => ({ status: 'running', tasks_total: 0, tasks_done: 0, tasks_failed: 0, plan_complete: false, ...counts });

/** The figures shown as a run's pushes arrive, each given the one before, as the page does. */
function shown(updates: RunProgressInput[]): RunProgress[] {
  const figures: RunProgress[] = [];
  for (const update of updates) figures.push(runProgress(update, figures.at(-1) ?? null));
  return figures;
}

const percents = (figures: RunProgress[]) => figures.map((figure) => figure.percent);

describe('runProgress', () => {
  it('claims no percent while Stage 2 is not planned: 2 of 9 Stage 1 tasks is not 22 % of the run', () => {
    const figures = shown([
      run({ status: 'queued' }),
      run({ tasks_total: 9 }),
      run({ tasks_total: 9, tasks_done: 2 }),
      run({ tasks_total: 9, tasks_done: 9 }),
      // Stage 2 planned: 80 more tasks, the total fixed from here on.
      run({ tasks_total: 89, tasks_done: 9, plan_complete: true }),
      run({ tasks_total: 89, tasks_done: 45, tasks_failed: 2, plan_complete: true }),
      run({ status: 'done', tasks_total: 89, tasks_done: 85, tasks_failed: 4, plan_complete: true }),
    ]);
    expect(figures.map((figure) => figure.state)).toEqual(['planning', 'planning', 'planning', 'planning', 'working', 'working', 'finished']);
    expect(percents(figures)).toEqual([null, null, null, null, 10, 52, 100]);
  });

  it('holds its figure when a pause for the endpoint puts failed tasks back in the queue, naming them, until they settle again', () => {
    const figures = shown([
      run({ tasks_total: 10, tasks_done: 4, tasks_failed: 3, plan_complete: true }),
      run({ status: 'paused', tasks_total: 10, tasks_done: 4, tasks_failed: 0, plan_complete: true }),
      run({ tasks_total: 10, tasks_done: 6, tasks_failed: 0, plan_complete: true }),
      run({ tasks_total: 10, tasks_done: 8, tasks_failed: 0, plan_complete: true }),
    ]);
    expect(percents(figures)).toEqual([70, 70, 70, 80]);
    expect(figures.map((figure) => figure.retrying)).toEqual([0, 3, 1, 0]);
    expect(figures[1]).toMatchObject({ done: 4, failed: 0, settled: 7 });
  });

  it('reaches 100 only when every task settled (floor, not rounding up 99.5)', () => {
    expect(runProgress(run({ tasks_total: 200, tasks_done: 199, plan_complete: true })).percent).toBe(99);
    expect(runProgress(run({ tasks_total: 200, tasks_done: 200, plan_complete: true })).percent).toBe(100);
  });

  it('shows a run cancelled while it planned with the counts it ended on', () => {
    expect(runProgress(run({ status: 'cancelled', tasks_total: 9, tasks_done: 3 }))).toMatchObject({ state: 'finished', percent: 33 });
  });

  it('never goes backwards, whatever a run planned, settled and put back, in any order of pushes', () => {
    // A run's life as its counters move: Stage 1 tasks settle, Stage 2 is planned once (the
    // total grows, the plan is complete), tasks settle, a pause puts some failures back.
    const step = fc.oneof(
      fc.record({ kind: fc.constant('settle' as const), failed: fc.boolean() }),
      fc.record({ kind: fc.constant('plan' as const), tasks: fc.integer({ min: 0, max: 100 }) }),
      fc.record({ kind: fc.constant('reopen' as const), tasks: fc.integer({ min: 1, max: 5 }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.array(step, { maxLength: 80 }), (stage1, steps) => {
        let state = run({ tasks_total: stage1 });
        const updates: RunProgressInput[] = [state];
        for (const s of steps) {
          const pending = state.tasks_total - state.tasks_done - state.tasks_failed;
          if (s.kind === 'settle' && pending > 0) state = s.failed ? { ...state, tasks_failed: state.tasks_failed + 1 } : { ...state, tasks_done: state.tasks_done + 1 };
          else if (s.kind === 'plan' && !state.plan_complete) state = { ...state, tasks_total: state.tasks_total + s.tasks, plan_complete: true };
          else if (s.kind === 'reopen') state = { ...state, tasks_failed: Math.max(0, state.tasks_failed - s.tasks) };
          updates.push(state);
        }
        const claimed = percents(shown(updates)).filter((percent): percent is number => percent !== null);
        claimed.forEach((percent, index) => expect(percent).toBeGreaterThanOrEqual(claimed[index - 1] ?? 0));
      }),
    );
  });

  it.each<RunStatus>(['queued', 'running', 'paused'])('treats a %s run with its plan complete as working', (status) => {
    expect(runProgress(run({ status, tasks_total: 4, tasks_done: 1, plan_complete: true }))).toMatchObject({ state: 'working', percent: 25 });
  });
});
