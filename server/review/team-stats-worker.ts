import { openDatabase, type Db } from '../../db/database';
import { teamStats } from './review-stats';
import type { TeamFigures, TeamStatsThreadJob } from './team-stats-thread';

/**
 * A count of the team's figures on a thread of the pool: on a read-only connection of its own to
 * the database file (WAL: it reads the last commit while the server writes), opened at the
 * thread's first count of that file and kept while the thread lives.
 */
const connections = new Map<string, Db>();

export default function figures({ dbPath }: TeamStatsThreadJob): TeamFigures {
  let db = connections.get(dbPath);
  if (!db) {
    db = openDatabase(dbPath);
    db.pragma('query_only = ON');
    connections.set(dbPath, db);
  }
  return teamStats(db);
}
