import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listMigrations, migrate, MIGRATIONS_DIR, openDatabase } from './database';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hqa-db-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('migrations', () => {
  it('applies the real migrations once, records them, and never re-applies', () => {
    const db = openDatabase(join(dir, 'a.sqlite'));
    const first = migrate(db);
    expect(first).toEqual(listMigrations(MIGRATIONS_DIR).map((m) => m.version));
    expect(migrate(db)).toEqual([]);
    const recorded = db.prepare('SELECT version FROM schema_migrations').all();
    expect(recorded).toHaveLength(first.length);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    db.close();
  });

  it('runs each migration in a transaction: a failing one leaves no trace', () => {
    const migrations = join(dir, 'm');
    mkdirSync(migrations);
    writeFileSync(join(migrations, '001_make_a.sql'), 'CREATE TABLE a (x INTEGER);');
    writeFileSync(join(migrations, '002_break_b.sql'), 'CREATE TABLE b (x INTEGER); INSERT INTO nowhere VALUES (1);');
    const db = openDatabase(join(dir, 'b.sqlite'));
    expect(() => migrate(db, migrations)).toThrow(/002_break_b\.sql failed/);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name IN ('a','b')").all()).toEqual([{ name: 'a' }]);
    expect(db.prepare('SELECT version FROM schema_migrations').all()).toEqual([{ version: 1 }]);
    db.close();
  });

  it('refuses a gap in the numbering and a database newer than the code', () => {
    const migrations = join(dir, 'gap');
    mkdirSync(migrations);
    writeFileSync(join(migrations, '001_a.sql'), 'SELECT 1;');
    writeFileSync(join(migrations, '003_c.sql'), 'SELECT 1;');
    expect(() => listMigrations(migrations)).toThrow(/expected version 002/);

    const db = openDatabase(join(dir, 'c.sqlite'));
    migrate(db);
    db.prepare("INSERT INTO schema_migrations (version, name) VALUES (999, 'future')").run();
    expect(() => migrate(db)).toThrow(/migration 999 \(future\).*does not know/);
    db.close();
  });
});

/** SQLite's temporary files this process holds open (it unlinks them at once; the descriptor stays). */
function openTempFiles(): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.includes('etilqs_') ? [target] : [];
    } catch {
      return [];
    }
  });
}

describe('temporary storage', () => {
  // A review submission runs the service's transaction inside the command's: a savepoint, whose
  // journal of the pages it changes passed SQLite's 64 KiB and went to a file created and
  // unlinked in /var/tmp, on about every submit (bench/review.ts, strace).
  it.skipIf(process.platform !== 'linux')('keeps a savepoint journal in memory, so a nested transaction over many pages creates no file', () => {
    const db = openDatabase(join(dir, 'temp.sqlite'));
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    let during: string[] = ['not run'];
    db.transaction(() => {
      const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
      for (let i = 0; i < 200; i++) insert.run('x'.repeat(1000));
      db.transaction(() => {
        db.prepare("UPDATE t SET v = 'y' || v").run();
        during = openTempFiles();
      })();
    })();
    expect(during).toEqual([]);
    expect(db.prepare('SELECT COUNT(*) FROM t WHERE v LIKE ?').pluck().get('yx%')).toBe(200);
    db.close();
  });
});
