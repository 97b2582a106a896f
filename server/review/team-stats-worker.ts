import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../db/database';
import { teamStats } from './review-stats';
import type { TeamStatsRequest, TeamStatsThreadJob, TeamStatsThreadMessage } from './team-stats-thread';

/**
 * Runs in a worker thread: counts the team's figures on a read-only connection of its own to
 * the same database file (WAL: it reads the last commit while the server writes), so the
 * server's event loop answers claims meanwhile.
 */
const job = workerData as TeamStatsThreadJob;
const db = openDatabase(job.dbPath);
db.pragma('query_only = ON');
const send = (message: TeamStatsThreadMessage) => parentPort?.postMessage(message);
parentPort?.on('message', ({ id }: TeamStatsRequest) => {
  try {
    send({ kind: 'figures', id, figures: teamStats(db) });
  } catch (error) {
    send({ kind: 'failed', id, message: error instanceof Error ? error.message : String(error) });
  }
});
parentPort?.once('close', () => db.close());
