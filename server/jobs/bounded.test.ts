import { describe, expect, it } from 'vitest';
import { claimLoops, eachBounded } from './bounded';

/** A task's work: a timer's turn, not a wait for anything, so that tasks overlap and the bound can be seen. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('bounded concurrency', () => {
  it('eachBounded works every item, never more than the bound at once, started in order', async () => {
    let inFlight = 0;
    let most = 0;
    const started: number[] = [];
    await eachBounded([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      started.push(n);
      inFlight++;
      most = Math.max(most, inFlight);
      await tick();
      inFlight--;
    });
    expect(started).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
    // A bound below one still makes progress, one at a time.
    const seen: number[] = [];
    await eachBounded([1, 2], 0, async (n) => void seen.push(n));
    expect(seen).toEqual([1, 2]);
  });

  it('eachBounded passes a task’s failure on', async () => {
    await expect(eachBounded([1, 2], 2, async (n) => { if (n === 2) throw new Error('task 2 failed'); })).rejects.toThrow('task 2 failed');
  });

  it('claimLoops runs that many loops side by side over one queue, at least one', async () => {
    const queue = [1, 2, 3, 4, 5];
    const done: number[] = [];
    let loops = 0;
    await claimLoops(2, async () => {
      loops++;
      for (let task = queue.shift(); task !== undefined; task = queue.shift()) {
        await tick();
        done.push(task);
      }
    });
    expect(loops).toBe(2);
    expect(done.sort()).toEqual([1, 2, 3, 4, 5]);
    let ran = 0;
    await claimLoops(0, async () => void ran++);
    expect(ran).toBe(1);
  });
});
