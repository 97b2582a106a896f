import { describe, expect, it } from 'vitest';
import { TransportStreak } from './transport-streak';

const down = (reason = 'connection failed: connect ECONNREFUSED 127.0.0.1:9') => ({ ok: false as const, reason, transport: true });

describe('TransportStreak', () => {
  it('reaches its limit at exactly the Nth transport failure in a row, naming the last reason', () => {
    const streak = new TransportStreak(3);

    expect([streak.record(1, down()), streak.record(2, down()), streak.record(3, down('HTTP 503: overloaded after 2 attempts'))]).toEqual([false, false, true]);
    expect(streak.taskIds()).toEqual([1, 2, 3]);
    expect(streak.reason()).toBe(
      'endpoint unreachable: 3 calls in a row failed after their retries (last: HTTP 503: overloaded after 2 attempts); resume the run once it answers again',
    );
  });

  it('starts again after any result the endpoint answered: an item, invalid output, a refusal, a rejected request', () => {
    const streak = new TransportStreak(2);
    for (const answered of [{ ok: true as const }, { ok: false as const, reason: 'invalid after repair: edit.0.row: required' }, { ok: false as const, reason: 'HTTP 401', transport: false }]) {
      streak.record(1, down());
      expect(streak.record(2, answered)).toBe(false);
      expect(streak.taskIds()).toEqual([]);
    }
    streak.record(3, down());
    expect(streak.record(4, down())).toBe(true);
    expect(streak.taskIds()).toEqual([3, 4]);
  });
});
