import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { openAndMigrate } from '../../db/database';
import { startWalCheckpointer } from '../../db/wal-checkpointer';
import { startTestServer } from '../support/test-server';

/** The WAL is checkpointed by a thread of its own; the server's connection only appends. */
const dir = mkdtempSync(join(tmpdir(), 'hqa-wal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const autocheckpoint = (db: ReturnType<typeof openAndMigrate>) => db.pragma('wal_autocheckpoint', { simple: true });

describe('the WAL checkpoint thread', () => {
  it('takes checkpoints off the connection, copies every frame the connection appends, and hands them back when stopped', async () => {
    const path = join(dir, 'wal.sqlite');
    const db = openAndMigrate(path);
    expect(autocheckpoint(db)).toBe(1000);
    const checkpointer = startWalCheckpointer(db, path, pino({ level: 'silent' }), 20);
    try {
      // Once the thread is up, commits on this connection no longer checkpoint.
      await expect.poll(() => autocheckpoint(db)).toBe(0);
      db.exec('CREATE TABLE filler (id INTEGER PRIMARY KEY, text TEXT)');
      const insert = db.prepare('INSERT INTO filler (text) VALUES (?)');
      // More than SQLite's 1,000 pages: the connection would have checkpointed on its own.
      for (let batch = 0; batch < 20; batch++) db.transaction(() => { for (let i = 0; i < 200; i++) insert.run('x'.repeat(1000)); })();
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

  it('runs beside every server', async () => {
    const server = await startTestServer({ demo: false });
    try {
      await expect.poll(() => autocheckpoint(server.server.ctx.db)).toBe(0);
    } finally {
      await server.close();
    }
  });
});
