/**
 * A run's consecutive transport failures: calls whose endpoint could not be reached, did not
 * answer in time, or answered 5xx / 429 / 408 / 409 on every retry (the LLM client's
 * `transport` kind, counted once per task after its retries). Any other task result — an item,
 * invalid output, a refusal, a rejected request — shows the endpoint answering and ends the
 * streak. A run pauses when the streak reaches its limit (`pause_after_transport_failures`),
 * instead of failing every task it has left against a dead endpoint.
 */
export class TransportStreak {
  private readonly failed: number[] = [];
  private lastReason = '';

  constructor(readonly limit: number) {}

  /** Counts one task's result; true when the streak is at its limit with this failure. */
  record(taskId: number, result: { ok: true } | { ok: false; reason: string; transport?: boolean }): boolean {
    if (result.ok || !result.transport) {
      this.failed.length = 0;
      return false;
    }
    this.failed.push(taskId);
    this.lastReason = result.reason;
    return this.failed.length >= this.limit;
  }

  /** The tasks of the streak, in the order they failed: the endpoint failed them, not their own content. */
  taskIds(): readonly number[] {
    return this.failed;
  }

  /** The stop reason a run paused by this streak shows (run page, `hqa generate --json`). */
  reason(): string {
    return (
      `endpoint unreachable: ${this.failed.length} calls in a row failed after their retries (last: ${this.lastReason}); ` +
      'resume the run once it answers again'
    );
  }
}
