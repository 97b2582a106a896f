import { describe, expect, it } from 'vitest';
import { EventLoopSlices } from './event-loop-slices';

const TASKS = 60;

/** Synchronous work, as the offline rules, verification and SQLite are. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // spin
  }
}

/**
 * Four workers looping like the run executor's over 1 ms tasks behind resolved promises; returns
 * how many tasks were done when a callback queued on the event loop got its turn.
 */
async function doneWhenLoopTurned(slices: EventLoopSlices | null): Promise<{ atTurn: number; total: number }> {
  let next = 0;
  let finished = 0;
  let atTurn = -1;
  const turned = new Promise<void>((resolve) =>
    setImmediate(() => {
      atTurn = finished;
      resolve();
    }),
  );
  const worker = async () => {
    while (next < TASKS) {
      const turn = slices?.turnIfDue();
      if (turn) {
        await turn;
        continue;
      }
      next++;
      busy(1);
      await Promise.resolve();
      finished++;
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  await turned;
  return { atTurn, total: finished };
}

describe('EventLoopSlices', () => {
  it('is needed: workers on resolved promises keep the event loop from turning until they are done', async () => {
    expect(await doneWhenLoopTurned(null)).toEqual({ atTurn: TASKS, total: TASKS });
  });

  it('with 5 ms slices, the event loop turns after a few tasks, and every task still gets done', async () => {
    const { atTurn, total } = await doneWhenLoopTurned(new EventLoopSlices(5));
    expect(total).toBe(TASKS);
    expect(atTurn).toBeGreaterThan(0);
    // One slice plus the tasks under way when it ended: far from all of them.
    expect(atTurn).toBeLessThan(TASKS / 3);
  });

  it('gives every worker the same turn once a slice is over, and a new slice after it', async () => {
    const slices = new EventLoopSlices(1000);
    expect(slices.turnIfDue()).toBeNull();
    const ended = new EventLoopSlices(0);
    const turn = ended.turnIfDue();
    expect(turn).not.toBeNull();
    expect(ended.turnIfDue()).toBe(turn);
    await turn;
  });
});
