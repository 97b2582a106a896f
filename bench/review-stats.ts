import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAndMigrate } from '../db/database';
import { pino } from 'pino';
import { teamStats } from '../server/review/review-stats';
import { teamStatsSource } from '../server/review/team-stats-thread';
import type { ChartType } from '../shared/domain/chart-types';
import { buildChart, buildItem, buildProposal, buildQa, buildUser, copyItem } from '../test/support/factories';
import { teamStatsByDefinition } from '../test/support/team-stats-definition';

/**
 * The team's review figures (GET /api/review/stats for curators), which every curator's stats
 * page refetches on each decision, on the thread that answers every reviewer. For each size:
 * D decided items (a fifth with two reviews, a tenth of the rest still open) among as many
 * open ones, by 20 reviewers over 200 proposals; the figures as the server counts them (SQL)
 * and as they were counted before (every decided item and review loaded into JavaScript); and
 * the longest the event loop was held while a stats request was answered, the figures counted
 * on the server's thread or on the figures' own thread (server/review/team-stats-thread.ts).
 *   npm run bench:review-stats -- [sizes, comma-separated; default 3000,30000]
 */
const SIZES = (process.argv[2] ?? '3000,30000').split(',').map(Number);
/** The longest gap between 1 ms ticks while `work` runs (ms), the best of 5 runs. */
async function longestHold(work: () => Promise<unknown>): Promise<number> {
  const holds: number[] = [];
  for (let i = 0; i < 5; i++) {
    let last = performance.now();
    let longest = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    last = performance.now();
    await work();
    longest = Math.max(longest, performance.now() - last);
    clearInterval(ticker);
    holds.push(longest);
  }
  return Math.min(...holds);
}

const dir = mkdtempSync(join(tmpdir(), 'hqa-bench-stats-'));
try {
  for (const size of SIZES) {
    const db = openAndMigrate(join(dir, `stats-${size}.sqlite`));
    const reviewers = await Promise.all(Array.from({ length: 20 }, (_, i) => buildUser(db, { username: `rev${i}` })));
    const chartTypes: ChartType[] = ['vertical_bar', 'horizontal_bar', 'line', 'pie'];
    const templates = chartTypes.map((chartType) => buildItem(db, { qaId: buildQa(db, { chartId: buildChart(db, { chartType }) }) }));
    const proposals = Array.from({ length: 200 }, (_, i) => buildProposal(db, { text: `Proposal ${i}: double the largest value` }));
    const review = db.prepare(`INSERT INTO reviews (item_id, reviewer_id, decision, rationality, correctness, layout, time_spent_ms, created_at)
      VALUES (?, ?, ?, ?, 1, ?, ?, ?)`);
    db.transaction(() => {
      for (let n = 0; n < 2 * size; n++) {
        const decided = n % 2 === 0;
        const accept = n % 3 !== 0;
        const itemId = copyItem(db, templates[n % templates.length] ?? 0, { proposalId: proposals[n % proposals.length] ?? null, status: decided ? (accept ? 'accepted' : 'rejected') : 'pending' });
        if (!decided) continue;
        for (let r = 0; r < (n % 5 === 0 ? 2 : 1); r++) {
          const day = new Date(Date.UTC(2026, 9, 1 + (n % 60))).toISOString();
          review.run(itemId, reviewers[(n + r) % reviewers.length]?.id ?? 0, accept ? 'accept' : 'reject', n % 7 === 0 ? 0 : 1, (n + r) % 4 === 0 ? 0 : 1, 4000 + (n % 113) * 250, day);
        }
      }
    })();
    const time = (run: () => unknown) => {
      run();
      const runs: number[] = [];
      for (let i = 0; i < 5; i++) {
        const start = performance.now();
        run();
        runs.push(performance.now() - start);
      }
      return runs.sort((a, b) => a - b)[2] ?? NaN;
    };
    const sql = time(() => teamStats(db));
    const before = time(() => teamStatsByDefinition(db));
    console.log(`${size} decided items: team figures ${sql.toFixed(1)} ms (median of 5), counted as before ${before.toFixed(1)} ms: ${(before / sql).toFixed(1)}× faster`);
    const source = teamStatsSource(db, join(dir, `stats-${size}.sqlite`), pino({ level: 'silent' }));
    await source.figures(); // the thread's start is not what is measured
    const onThread = await longestHold(() => source.figures());
    const here = await longestHold(() => Promise.resolve(teamStats(db)));
    console.log(`  event loop held at most ${here.toFixed(1)} ms counting on the server's thread, ${onThread.toFixed(1)} ms counting on the figures' thread`);
    await source.close();
    db.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
