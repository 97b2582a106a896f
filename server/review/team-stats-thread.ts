import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import type { ReviewStatsResponse } from '../../shared/api/review';
import { freshOnce } from '../jobs/fresh-once';
import { threadPool } from '../jobs/thread-pool';
import { teamStats } from './review-stats';

export type TeamFigures = NonNullable<ReviewStatsResponse['team']>;

export interface TeamStatsThreadJob {
  dbPath: string;
}

export interface TeamStatsSource {
  /** The team's figures as of a commit after the call (callers in the meantime share one count). */
  readonly figures: () => Promise<TeamFigures>;
  readonly close: () => Promise<void>;
}

/** HQA_STATS_THREADS=0 counts on the calling thread (the worker's own function, its own connection). */
const pool = threadPool<TeamStatsThreadJob, TeamFigures>({
  entry: new URL('./team-stats-worker-entry.cjs', import.meta.url),
  threadsVariable: 'HQA_STATS_THREADS',
  inProcess: async (job) => (await import('./team-stats-worker')).default(job),
});

/**
 * The team's review figures, counted off the event loop on the shared thread pool. They read
 * every decided item and every standing review (200 ms at 30,000 decided items,
 * bench/review-stats.ts), and every curator's stats page asks again on each decision: on the
 * server's event loop each count held every reviewer's claim and submit until it ended.
 *
 * Requests while a count runs share the one count that starts after it (freshOnce), so it
 * includes what was committed before they asked; any number of curators cost at most one count
 * at a time. With no file to share (an in-memory database), or once a count on the thread has
 * failed, the figures are counted here, as before.
 */
export function teamStatsSource(db: Db, dbPath: string, logger: Logger): TeamStatsSource {
  let failed = dbPath === ':memory:';
  const count = async (): Promise<TeamFigures> => {
    if (failed) return teamStats(db);
    try {
      return await pool.run({ dbPath });
    } catch (error) {
      // The count it owed is counted here, as the ones after it will be.
      logger.warn({ err: error }, "counting the team's figures on a thread failed; they are counted on the server's thread from now on");
      failed = true;
      if (!db.open) throw error;
      return teamStats(db);
    }
  };
  const figures = freshOnce(count);
  return {
    figures,
    // The pool is shared and ended with the others (closeThreadPools); this source counts no more off the loop.
    close: async () => {
      failed = true;
    },
  };
}
