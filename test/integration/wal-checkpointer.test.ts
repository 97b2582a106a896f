import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { openAndMigrate } from '../../db/database';
import { startWalCheckpointer, walCheckpointThreadId } from '../../db/wal-checkpointer';
import { startTestServer } from '../support/test-server';
import { scratchWriter } from '../support/factories';

/** The WAL is checkpointed by a thread of its own; the server's connection only appends. */
const dir = mkdtempSync(join(tmpdir(), 'hqa-wal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const autocheckpoint = (db: ReturnType<typeof openAndMigrate>) => db.pragma('wal_autocheckpoint', { simple: true });

/** Appends `batches` transactions of 200 rows of 1 kB (about 50 pages each) to the WAL. */
function fill(db: ReturnType<typeof openAndMigrate>, batches: number): void {
  db.exec('CREATE TABLE IF NOT EXISTS filler (id INTEGER PRIMARY KEY, text TEXT)');
  const insert = scratchWriter(db, 'filler', 'text');
  for (let batch = 0; batch < batches; batch++) db.transaction(() => { for (let i = 0; i < 200; i++) insert('x'.repeat(1000)); })();
}

describe('the WAL checkpoint thread', () => {
  it('takes checkpoints off the connection, copies every frame the connection appends, and hands them back when stopped', async () => {
    const path = join(dir, 'wal.sqlite');
    const db = openAndMigrate(path);
    expect(autocheckpoint(db)).toBe(1000);
    const checkpointer = startWalCheckpointer(db, path, pino({ level: 'silent' }), 20);
    try {
      // Once the thread is up, commits on this connection no longer checkpoint.
      await expect.poll(() => autocheckpoint(db)).toBe(0);
      // More than SQLite's 1,000 pages: the connection would have checkpointed on its own.
      fill(db, 20);
      await expect.poll(() => checkpointer.last()?.log ?? 0, { timeout: 5_000 }).toBeGreaterThan(1000);
      // The thread catches up with everything appended.
      await expect.poll(() => { const last = checkpointer.last(); return last !== null && last.log > 0 && last.checkpointed === last.log; }, { timeout: 5_000 }).toBe(true);
    } finally {
      await checkpointer.stop();
    }
    expect(autocheckpoint(db)).toBe(1000);
    expect((db.prepare('SELECT COUNT(*) AS n FROM filler').get() as { n: number }).n).toBe(4000);
    db.close();
  });

  it('checkpoints every database of the process on one thread, and stops each alone', async () => {
    const caughtUp = (checkpointer: { last: () => { log: number; checkpointed: number } | null }) => {
      const last = checkpointer.last();
      return last !== null && last.log > 0 && last.checkpointed === last.log;
    };
    const paths = [join(dir, 'one.sqlite'), join(dir, 'two.sqlite')];
    const dbs = paths.map((path) => openAndMigrate(path));
    const checkpointers = dbs.map((db, n) => startWalCheckpointer(db, paths[n]!, pino({ level: 'silent' }), 20));
    const threadId = walCheckpointThreadId();
    expect(threadId).not.toBeNull();
    try {
      for (const db of dbs) await expect.poll(() => autocheckpoint(db)).toBe(0);
      for (const db of dbs) fill(db, 2);
      for (const checkpointer of checkpointers) await expect.poll(() => caughtUp(checkpointer), { timeout: 5_000 }).toBe(true);
      // The first stops; the second goes on being checkpointed, by the same thread.
      await checkpointers[0]!.stop();
      expect(autocheckpoint(dbs[0]!)).toBe(1000);
      expect(autocheckpoint(dbs[1]!)).toBe(0);
      const before = checkpointers[1]!.last()!.log;
      fill(dbs[1]!, 2);
      // Once all was copied, the next write starts the WAL over: another length, all of it copied again.
      await expect.poll(() => checkpointers[1]!.last()!.log !== before && caughtUp(checkpointers[1]!), { timeout: 5_000 }).toBe(true);
      // A third database joins the thread the others used.
      const third = join(dir, 'three.sqlite');
      const db3 = openAndMigrate(third);
      const checkpointer3 = startWalCheckpointer(db3, third, pino({ level: 'silent' }), 20);
      expect(walCheckpointThreadId()).toBe(threadId);
      await expect.poll(() => autocheckpoint(db3)).toBe(0);
      await checkpointer3.stop();
      expect(autocheckpoint(db3)).toBe(1000);
      db3.close();
    } finally {
      await Promise.all(checkpointers.map((checkpointer) => checkpointer.stop()));
    }
    expect(dbs.map(autocheckpoint)).toEqual([1000, 1000]);
    for (const db of dbs) db.close();
  });

  it('runs beside every server', async () => {
    const server = await startTestServer({ demo: false });
    try {
      await expect.poll(() => autocheckpoint(server.server.ctx.db)).toBe(0);
    } finally {
      await server.close();
    }
  });
});
