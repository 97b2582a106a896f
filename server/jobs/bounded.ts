import pLimit from 'p-limit';

/**
 * The two shapes of bounded concurrency the jobs use, one way each:
 *  - claim loops (`claimLoops`): a run's work lives in the database, and each of `count` loops
 *    claims the next task until none is left, so a task is never held by two loops;
 *  - a list in memory (`eachBounded`): the items are known up front and at most `concurrency`
 *    are in flight (p-limit), in the list's order.
 */

/** `count` copies (at least one) of a loop that claims and works tasks until it finds none. */
export async function claimLoops(count: number, loop: () => Promise<void>): Promise<void> {
  await Promise.all(Array.from({ length: Math.max(1, Math.floor(count)) }, () => loop()));
}

/** Each item through `task`, at most `concurrency` at a time (at least one), started in the list's order. */
export async function eachBounded<T>(items: readonly T[], concurrency: number, task: (item: T) => Promise<void>): Promise<void> {
  const limit = pLimit(Math.max(1, Math.floor(concurrency)));
  await Promise.all(items.map((item) => limit(() => task(item))));
}
