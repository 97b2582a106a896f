import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimSql, findNextClaim, nowIso } from '../../server/review/review-queries';
import { generateItems } from '../support/review-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';
import { buildGold, buildUser, setItemStatus } from '../support/factories';

/**
 * The claim statement's plan, step by step: each walks what is small or ordered, never all the
 * items of a status. (A plan that scans them passes every behaviour test and slows every claim
 * as the benchmark grows.)
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await generateItems(server, 4);
});
afterAll(async () => {
  await server.close();
});

const db = () => server.server.ctx.db;
const input = (gold: 'off' | 'drawn' | 'drained') => ({ reviewerId: 1, now: nowIso(), k: 1, filters: { mismatch_first: false }, exclude: [], gold });
const plan = (sql: string) => (db().prepare(`EXPLAIN QUERY PLAN ${sql}`).all({ me: 1, now: nowIso(), k: 1, exclude: '[]' }) as { detail: string }[]).map((row) => row.detail);

describe('the claim statement', () => {
  it('draws gold from the gold items, not by walking every accepted item', async () => {
    // Accepted items outnumber gold ones in any grown benchmark: accept all the items, mark one gold.
    setItemStatus(db(), 'accepted');
    const [first] = db().prepare('SELECT id FROM hqa_items ORDER BY id LIMIT 1').all() as { id: number }[];
    buildGold(db(), { itemId: first?.id ?? 0, markedBy: (await buildUser(db(), { role: 'curator' })).id });
    for (const gold of ['drawn', 'drained'] as const) {
      const steps = plan(claimSql(input(gold)));
      expect(steps).toContain('SCAN g');
      expect(steps.some((step) => /SEARCH i USING INTEGER PRIMARY KEY/.test(step))).toBe(true);
      // The accepted items are never the walk: no step searches them by status.
      expect(steps.some((step) => /SEARCH i USING (COVERING )?INDEX hqa_items_queue\w* \(status=\?\)$/.test(step) && /accepted/.test(step))).toBe(false);
      expect(findNextClaim(db(), input(gold))).toEqual({ id: first?.id, gold: true });
    }
  });

  it('walks the pending items in id order and stops at the first (no sort, no scan of the table)', () => {
    const steps = plan(claimSql(input('off')));
    expect(steps.some((step) => /SEARCH i USING (COVERING )?INDEX hqa_items_queue/.test(step))).toBe(true);
    expect(steps.some((step) => /^SCAN i\b/.test(step))).toBe(false);
  });
});
