import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Time slices for work that never waits on I/O. The offline engine, verification and SQLite are
 * all synchronous, so a run's workers would go from task to task on resolved promises alone and
 * the event loop would serve no request and flush no socket until the run ended. Past the end of
 * a slice, every worker waits for one turn of the event loop (the same turn for all of them).
 * Work that waits on a model anyway loses nothing measurable: at most one extra turn per slice.
 */
export class EventLoopSlices {
  private sliceStart = performance.now();
  private turn: Promise<void> | null = null;

  constructor(private readonly sliceMs: number) {}

  /**
   * Null while the slice lasts: the caller goes on synchronously, so this check and the work
   * after it are one step and no other worker starts a task in between on a stale answer. Past
   * the slice's end: the event loop's next turn, after which the caller should ask again.
   */
  turnIfDue(): Promise<void> | null {
    if (this.turn) return this.turn;
    if (performance.now() - this.sliceStart < this.sliceMs) return null;
    this.turn = nextTurn().then(() => {
      this.sliceStart = performance.now();
      this.turn = null;
    });
    return this.turn;
  }
}
