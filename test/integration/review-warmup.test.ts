import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cachedStatementCount } from '../../db/statements';
import { findNextClaim, nowIso } from '../../server/review/review-queries';
import { warmReviewPath } from '../../server/review/review-warmup';
import { getSettings } from '../../server/settings/settings-queries';
import { generateItems } from '../support/review-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await generateItems(server, 3);
});
afterAll(async () => {
  await server.close();
});

const db = () => server.server.ctx.db;
const totalChanges = () => (db().prepare('SELECT total_changes() AS n').get() as { n: number }).n;
const stored = () => db().prepare('SELECT (SELECT COUNT(*) FROM leases) AS leases, (SELECT COUNT(*) FROM sessions) AS sessions, (SELECT group_concat(status) FROM hqa_items) AS statuses').get();

describe('the review warm-up at start', () => {
  it('compiles the claim statement a claim then reuses, and writes nothing', () => {
    const before = { changes: totalChanges(), stored: stored() };
    const settings = getSettings(db());
    // As a claim with no filters asks under these settings (claimNext).
    const input = {
      reviewerId: 0,
      now: nowIso(),
      k: settings.reviews_per_item,
      filters: { mismatch_first: false },
      exclude: [],
      gold: settings.gold_share <= 0 ? ('off' as const) : ('drained' as const),
    };
    // What a claim compiles is compiled by the warm-up, not by the first reviewer's claim.
    warmReviewPath(db());
    const warmed = cachedStatementCount(db());
    expect(findNextClaim(db(), input)).not.toBeNull();
    expect(cachedStatementCount(db())).toBe(warmed);
    expect(totalChanges()).toBe(before.changes);
    expect(stored()).toEqual(before.stored);
  });
});
