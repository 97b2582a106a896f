import { describe, expect, it } from 'vitest';
import { freshOnce } from './fresh-once';

/** A run whose answer is the number of the run, finished by hand. */
function controlledRuns() {
  const started: { n: number; finish: () => void; fail: () => void }[] = [];
  const run = () =>
    new Promise<number>((resolve, reject) => {
      const n = started.length + 1;
      started.push({ n, finish: () => resolve(n), fail: () => reject(new Error(`run ${n} failed`)) });
    });
  return { run, started };
}

describe('freshOnce', () => {
  it('gives callers during a run one shared run that starts after it', async () => {
    const { run, started } = controlledRuns();
    const call = freshOnce(run);
    const first = call();
    const second = call();
    const third = call();
    expect(started).toHaveLength(1);
    started[0]?.finish();
    expect(await first).toBe(1);
    // The follow-up starts once the first is over, never beside it.
    await Promise.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toHaveLength(2);
    started[1]?.finish();
    expect(await second).toBe(2);
    expect(await third).toBe(2);
    // Idle again: the next call runs at once.
    const fourth = call();
    expect(started).toHaveLength(3);
    started[2]?.finish();
    expect(await fourth).toBe(3);
  });

  it('runs again after a failure, for those who waited on it and for later callers', async () => {
    const { run, started } = controlledRuns();
    const call = freshOnce(run);
    const failing = call();
    const waiting = call();
    started[0]?.fail();
    await expect(failing).rejects.toThrow('run 1 failed');
    await new Promise((resolve) => setImmediate(resolve));
    started[1]?.finish();
    expect(await waiting).toBe(2);
  });
});
