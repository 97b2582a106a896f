import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { openDatabase, type Db } from '../db/database';
import { startWalCheckpointer } from '../db/wal-checkpointer';

/**
 * Commit latency on the thread that commits, as the server's event loop sees it: N small write
 * transactions (an update and an insert, as a review's) over a 100,000-row table, with SQLite
 * checkpointing in the committing connection (its default) and with the checkpoint thread
 * (db/wal-checkpointer.ts). A checkpoint copies ~1,000 pages and syncs the file; every request
 * in flight waits out the commit that runs it.
 *   npm run bench:wal -- [commits]
 */
const COMMITS = Number(process.argv[2] ?? 20_000);
const ROWS = 100_000;

function setUp(path: string): Db {
  const db = openDatabase(path);
  db.exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, status TEXT, v TEXT); CREATE INDEX t_status ON t (status, id);
    CREATE TABLE log (id INTEGER PRIMARY KEY, item INTEGER, at TEXT, body TEXT); CREATE INDEX log_item ON log (item)`);
  const insert = db.prepare('INSERT INTO t (status, v) VALUES (?, ?)');
  db.transaction(() => {
    for (let i = 0; i < ROWS; i++) insert.run('pending', 'x'.repeat(300));
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  return db;
}

function commits(db: Db): number[] {
  const update = db.prepare('UPDATE t SET status = ? WHERE id = ?');
  const log = db.prepare('INSERT INTO log (item, at, body) VALUES (?, ?, ?)');
  const times: number[] = [];
  for (let i = 0; i < COMMITS; i++) {
    const id = 1 + Math.floor(Math.random() * ROWS);
    const start = performance.now();
    db.transaction(() => {
      update.run('accepted', id);
      log.run(id, new Date().toISOString(), 'y'.repeat(200));
    }).immediate();
    times.push(performance.now() - start);

  }
  return times.sort((a, b) => a - b);
}

const dir = mkdtempSync(join(tmpdir(), 'hqa-bench-wal-'));
try {
  const pct = (v: number[], p: number) => v[Math.min(v.length - 1, Math.floor((p / 100) * v.length))] ?? NaN;
  const line = (name: string, v: number[]) =>
    `${name.padEnd(34)} p50 ${pct(v, 50).toFixed(3)} ms  p99 ${pct(v, 99).toFixed(3)} ms  p99.9 ${pct(v, 99.9).toFixed(2)} ms  max ${(v.at(-1) ?? NaN).toFixed(2)} ms  ` +
    `over 2 ms: ${v.filter((t) => t > 2).length}  total ${v.reduce((a, b) => a + b, 0).toFixed(0)} ms`;

  const inline = setUp(join(dir, 'inline.sqlite'));
  const inlineTimes = commits(inline);
  inline.close();

  const path = join(dir, 'thread.sqlite');
  const threaded = setUp(path);
  const checkpointer = startWalCheckpointer(threaded, path, pino({ level: 'silent' }));
  while (threaded.pragma('wal_autocheckpoint', { simple: true }) !== 0) await new Promise((r) => setTimeout(r, 5));
  const threadTimes = commits(threaded);
  await checkpointer.stop();
  threaded.close();

  console.log(`${COMMITS} commits over ${ROWS} rows (WAL, synchronous = NORMAL)`);
  console.log(line('checkpoint in the commit (default)', inlineTimes));
  console.log(line('checkpoint thread', threadTimes));
  const ratio = (p: number) => (pct(inlineTimes, p) / pct(threadTimes, p)).toFixed(1);
  const slow = (v: number[]) => v.filter((t) => t > 2).length;
  console.log(`default / thread: p99 ${ratio(99)}×, p99.9 ${ratio(99.9)}×, commits over 2 ms ${(slow(inlineTimes) / Math.max(1, slow(threadTimes))).toFixed(1)}×`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
