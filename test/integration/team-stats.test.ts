import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAndMigrate, type Db } from '../../db/database';
import { teamStats } from '../../server/review/review-stats';
import { retractReview } from '../../server/review/review-queries';
import { teamStatsSource } from '../../server/review/team-stats-thread';
import { pino } from 'pino';
import type { ChartType } from '../../shared/domain/chart-types';
import { teamStatsByDefinition } from '../support/team-stats-definition';
import { buildChart, buildItem, buildProposal, buildQa, buildReview, buildUser, copyItem } from '../support/factories';

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hqa-team-stats-'));
  db = openAndMigrate(join(dir, 'stats.sqlite'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A small deterministic generator (the data must be the same on every run). */
function randomFrom(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    // The high bits: an LCG's low bits repeat with a short period.
    return Math.floor(state / 65_536) % n;
  };
}

describe('team review figures', () => {
  it('count, in SQL, what every decided item and standing review add up to', async () => {
    const random = randomFrom(7);
    const reviewers = await Promise.all(Array.from({ length: 5 }, (_, i) => buildUser(db, { username: `rev${i}` })));
    const chartTypes: ChartType[] = ['vertical_bar', 'line', 'pie'];
    const proposals = [null, ...Array.from({ length: 60 }, (_, i) => buildProposal(db, { text: `Proposal ${i}` }))];
    const templates = chartTypes.map((chartType) => buildItem(db, { qaId: buildQa(db, { chartId: buildChart(db, { chartType }) }) }));
    const statuses = ['accepted', 'rejected', 'pending', 'in_review'] as const;
    for (let n = 0; n < 400; n++) {
      const itemId = copyItem(db, templates[random(templates.length)] ?? 0, { proposalId: proposals[random(proposals.length)] ?? null, status: statuses[random(4)] ?? 'pending' });
      const reviewCount = random(4);
      for (let r = 0; r < reviewCount; r++) {
        const reviewId = buildReview(db, {
          itemId,
          reviewerId: reviewers[(n + r) % reviewers.length]?.id ?? 0,
          decision: random(2) === 0 ? 'accept' : 'reject',
          criteria: { rationality: { pass: random(3) > 0, note: '' }, layout: { pass: random(2) > 0, note: '' } },
          timeSpentMs: 1000 + random(60_000),
        });
        // Some are taken back: those count nowhere.
        if (random(7) === 0) retractReview(db, reviewId, 'undo');
      }
    }

    const expected = teamStatsByDefinition(db);
    const actual = teamStats(db);
    expect(actual.decided).toBeGreaterThan(100);
    expect(actual.agreement.rationality.items).toBeGreaterThan(20);
    expect(actual.by_proposal).toHaveLength(50);
    expect({ ...actual, throughput: undefined }).toEqual({ ...expected, throughput: undefined });
  });

  it('are empty and unrated with nothing decided', () => {
    const stats = teamStats(db);
    expect(stats).toMatchObject({ pass_rate: null, decided: 0, by_chart_type: [], by_proposal: [], by_reviewer: [], throughput: [] });
    expect(stats.agreement.layout).toEqual({ items: 0, percent_agreement: null, fleiss_kappa: null });
  });
});

describe("the team figures' thread", () => {
  it('counts on its own connection what the server has committed, including commits made while a count ran', async () => {
    const reviewer = await buildUser(db, { username: 'threaded' });
    const qaId = buildQa(db, { chartId: buildChart(db, { chartType: 'pie' }) });
    const first = buildItem(db, { qaId, status: 'accepted' });
    buildReview(db, { itemId: first, reviewerId: reviewer.id });
    const source = teamStatsSource(db, join(dir, 'stats.sqlite'), pino({ level: 'silent' }));
    try {
      expect(await source.figures()).toEqual(teamStats(db));
      const inFlight = source.figures();
      // Committed after that count was asked for: a caller asking now must see it.
      copyItem(db, first, { proposalId: null, status: 'rejected' });
      const [before, after, alsoAfter] = await Promise.all([inFlight, source.figures(), source.figures()]);
      expect(before.decided).toBeGreaterThanOrEqual(1);
      expect(after.decided).toBe(2);
      expect(alsoAfter).toEqual(after);
      expect(after).toEqual(teamStats(db));
    } finally {
      await source.close();
    }
  });

  it('counts on the server thread once its own has failed, the count it owed included', async () => {
    await buildUser(db, { username: 'fallback' });
    // A directory is no database: the thread fails as it opens it.
    const source = teamStatsSource(db, dir, pino({ level: 'silent' }));
    try {
      expect(await source.figures()).toEqual(teamStats(db));
      expect(await source.figures()).toEqual(teamStats(db));
    } finally {
      await source.close();
    }
  });

  it('counts on the server thread when there is no file to share', async () => {
    const memory = openAndMigrate(':memory:');
    const source = teamStatsSource(memory, ':memory:', pino({ level: 'silent' }));
    try {
      expect(await source.figures()).toEqual(teamStats(memory));
    } finally {
      await source.close();
      memory.close();
    }
  });
});
