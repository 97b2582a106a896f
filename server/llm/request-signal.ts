/**
 * Runs one SDK request on its own short-lived signal that follows `parent`. The openai SDK adds
 * an abort listener to the signal it is given and never removes it (openai/openai-node#1811):
 * given a run's long-lived signal, every call would leave one behind — thousands per run. The
 * child collects the SDK's listener and is dropped with the request; ours on the parent is
 * removed when the request settles.
 */
export async function withRequestSignal<T>(parent: AbortSignal | undefined, request: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
  if (!parent) return request(undefined);
  const child = new AbortController();
  const follow = () => child.abort(parent.reason);
  if (parent.aborted) follow();
  else parent.addEventListener('abort', follow, { once: true });
  try {
    return await request(child.signal);
  } finally {
    parent.removeEventListener('abort', follow);
  }
}
