import type { Db } from '../../db/database';
import { statement } from '../../db/statements';

/** Unfinished generation runs by whether they move (queued, running) or wait (paused); the runs_status index answers it. */
export function countUnfinishedRuns(db: Db): { in_progress: number; paused: number } {
  const row = statement(
    db,
    `SELECT COALESCE(SUM(status IN ('queued', 'running')), 0) AS in_progress, COALESCE(SUM(status = 'paused'), 0) AS paused
       FROM runs WHERE status IN ('queued', 'running', 'paused')`,
  ).get() as { in_progress: number; paused: number };
  return row;
}

/** How far the project got, for a first overview's next step: charts and questions imported, runs started. */
export function countSetup(db: Db): { charts: number; questions: number; runs: number } {
  return statement(
    db,
    `SELECT (SELECT COUNT(*) FROM charts) AS charts, (SELECT COUNT(*) FROM factual_qas) AS questions, (SELECT COUNT(*) FROM runs) AS runs`,
  ).get() as { charts: number; questions: number; runs: number };
}
