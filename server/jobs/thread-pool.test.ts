import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { offlineProposals, type OfflineProposalsInput } from '../generation/offline';
import { threadPool, type ThreadPool, type ThreadPoolOptions } from './thread-pool';

/** A pool whose thread entry is the offline rules' (a real CommonJS entry), worked in-process when the variable says 0 threads. */
const VARIABLE = 'HQA_TEST_POOL_THREADS';

const IDLE = process.env.HQA_THREAD_IDLE_MS;
afterEach(() => {
  delete process.env[VARIABLE];
  if (IDLE === undefined) delete process.env.HQA_THREAD_IDLE_MS;
  else process.env.HQA_THREAD_IDLE_MS = IDLE;
});
/** Pools made here, closed after: the process's shared pools (other files' threads) are left running. */
const made: Pick<ThreadPool<unknown, unknown>, 'close'>[] = [];
afterAll(() => Promise.all(made.map((pool) => pool.close())));
function testPool<I, O>(options: ThreadPoolOptions<I, O>): ThreadPool<I, O> {
  const pool = threadPool(options);
  made.push(pool);
  return pool;
}

describe('threadPool: the one way CPU work leaves the event loop', () => {
  it('with 0 threads works each task in-process, by its name', async () => {
    process.env[VARIABLE] = '0';
    const seen: (string | undefined)[] = [];
    const pool = testPool<number, number>({
      entry: new URL('../generation/offline-worker-entry.cjs', import.meta.url),
      threadsVariable: VARIABLE,
      inProcess: (input, task) => {
        seen.push(task);
        return task === 'double' ? input * 2 : input + 1;
      },
    });
    expect(await pool.run(20)).toBe(21);
    expect(await pool.run(20, 'double')).toBe(40);
    expect(seen).toEqual([undefined, 'double']);
  });

  it('on a thread runs the worker’s named export, and closing ends the threads until the next task', async () => {
    const pool = testPool<unknown, string[]>({
      entry: new URL('../generation/offline-worker-entry.cjs', import.meta.url),
      threadsVariable: VARIABLE,
      inProcess: () => {
        throw new Error('not on a thread');
      },
    });
    // Stage 1's proposals, seeded: the thread draws exactly what the loop would.
    const input: OfflineProposalsInput = { chartType: 'vertical_bar', examples: [], count: 3, seed: 7 };
    const onLoop = offlineProposals(input);
    expect(onLoop).toHaveLength(3);
    expect(await pool.run(input, 'proposals')).toEqual(onLoop);
    await pool.close();
    expect(pool.threadCount()).toBe(0);
    expect(await pool.run(input, 'proposals')).toEqual(onLoop);
  }, 60_000);

  it('ends a thread idle for HQA_THREAD_IDLE_MS, and keeps one that is not', async () => {
    const input: OfflineProposalsInput = { chartType: 'vertical_bar', examples: [], count: 1, seed: 3 };
    const make = () =>
      testPool<unknown, string[]>({
        entry: new URL('../generation/offline-worker-entry.cjs', import.meta.url),
        threadsVariable: VARIABLE,
        inProcess: () => {
          throw new Error('not on a thread');
        },
      });
    // Read when a pool starts its threads: each pool here its own value.
    process.env.HQA_THREAD_IDLE_MS = '600000';
    const kept = make();
    await kept.run(input, 'proposals');
    process.env.HQA_THREAD_IDLE_MS = '300';
    const brief = make();
    await brief.run(input, 'proposals');
    expect(brief.threadCount()).toBe(1);
    await expect.poll(() => brief.threadCount(), { timeout: 10_000 }).toBe(0);
    // Idle longer than the brief pool's thread was when it ended.
    expect(kept.threadCount()).toBe(1);
    await kept.close();
    expect(kept.threadCount()).toBe(0);
  }, 60_000);
});
