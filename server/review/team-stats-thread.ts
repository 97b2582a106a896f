import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import type { ReviewStatsResponse } from '../../shared/api/review';
import { freshOnce } from '../jobs/fresh-once';
import { teamStats } from './review-stats';

const WORKER = fileURLToPath(new URL('./team-stats-worker-entry.mjs', import.meta.url));

export type TeamFigures = NonNullable<ReviewStatsResponse['team']>;

export interface TeamStatsThreadJob {
  dbPath: string;
}
export interface TeamStatsRequest {
  id: number;
}
export type TeamStatsThreadMessage = { kind: 'figures'; id: number; figures: TeamFigures } | { kind: 'failed'; id: number; message: string };

export interface TeamStatsSource {
  /** The team's figures as of a commit after the call (callers in the meantime share one count). */
  readonly figures: () => Promise<TeamFigures>;
  readonly close: () => Promise<void>;
}

/**
 * The team's review figures, counted on a thread of its own. They read every decided item and
 * every standing review (200 ms at 30,000 decided items, bench/review-stats.ts), and every
 * curator's stats page asks again on each decision: on the server's event loop each count held
 * every reviewer's claim and submit until it ended.
 *
 * The thread starts at the first request. Requests while a count runs share the one count that
 * starts after it (freshOnce), so it includes what was committed before they asked; any number
 * of curators cost at most one count at a time. With no file to share (an in-memory database), or once the
 * thread has failed, the figures are counted here, as before.
 */
export function teamStatsSource(db: Db, dbPath: string, logger: Logger): TeamStatsSource {
  let worker: Worker | null = null;
  let failed = dbPath === ':memory:';
  let lastId = 0;
  const waiting = new Map<number, { resolve: (figures: TeamFigures) => void; reject: (error: Error) => void }>();
  const failAll = (error: Error) => {
    for (const pending of waiting.values()) pending.reject(error);
    waiting.clear();
  };
  const thread = (): Worker => {
    if (worker) return worker;
    const started = new Worker(WORKER, { workerData: { dbPath } satisfies TeamStatsThreadJob });
    started.on('message', (message: TeamStatsThreadMessage) => {
      const pending = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.kind === 'figures') pending?.resolve(message.figures);
      else pending?.reject(new Error(`counting the team's review figures failed: ${message.message}`));
    });
    started.on('error', (error) => {
      logger.warn({ err: error }, "the team figures' thread failed; they are counted on the server's thread from now on");
      failed = true;
      failAll(error);
    });
    started.once('exit', (code) => {
      if (worker === started) worker = null;
      failAll(new Error(`the team figures' thread exited (code ${code})`));
    });
    // Idle, the thread never keeps a finished process alive.
    started.unref();
    worker = started;
    return started;
  };
  const count = (): Promise<TeamFigures> => {
    if (failed) return Promise.resolve(teamStats(db));
    const id = ++lastId;
    return new Promise<TeamFigures>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      const target = thread();
      // Held alive while a count is owed.
      target.ref();
      const request: TeamStatsRequest = { id };
      target.postMessage(request);
    })
      // A count the failing thread still owed is counted here, as the ones after it will be.
      .catch((error: unknown) => {
        if (failed && db.open) return teamStats(db);
        throw error;
      })
      .finally(() => {
        if (waiting.size === 0) worker?.unref();
      });
  };
  const figures = freshOnce(count);
  return {
    figures,
    close: async () => {
      const closing = worker;
      worker = null;
      failed = true;
      if (closing) await closing.terminate();
    },
  };
}
