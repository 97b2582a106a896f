/**
 * `run` for many callers at once: the first call starts it; calls while it runs share one more
 * run, started when it ends, since what they asked about may have changed after it began. So
 * every caller gets a result begun after its call, and at most one run is in progress.
 */
export function freshOnce<T>(run: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | null = null;
  let next: Promise<T> | null = null;
  const call = (): Promise<T> => {
    if (running === null) {
      running = run().finally(() => {
        running = null;
      });
      return running;
    }
    next ??= running
      .catch(() => undefined)
      .then(() => {
        next = null;
        return call();
      });
    return next;
  };
  return call;
}
