import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './database';
import { keepReserve, RESERVE_BYTES, reservePath, roomToWork, spendReserve, writeDespiteFullDisk } from './storage-reserve';

describe('the room set aside for recording a pause on a full disk', () => {
  let dir: string;
  let db: Db;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hqa-reserve-'));
    db = openDatabase(join(dir, 'hqa.sqlite'));
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is a real file beside the database, spent once, set aside again', () => {
    const path = reservePath(db) as string;
    expect(path).toBe(join(dir, 'hqa.sqlite-reserve'));
    expect(keepReserve(db)).toBe(true);
    expect(statSync(path).size).toBe(RESERVE_BYTES);
    expect(spendReserve(db)).toBe(true);
    expect(existsSync(path)).toBe(false);
    expect(spendReserve(db)).toBe(false);
    expect(roomToWork(db)).toBe(true);
    expect(existsSync(path)).toBe(true);
  });

  it('a write failing for storage is tried once more after the reserve is spent; other failures are not retried', () => {
    keepReserve(db);
    let tries = 0;
    const full = new Database.SqliteError('database or disk is full', 'SQLITE_FULL');
    expect(
      writeDespiteFullDisk(db, () => {
        tries += 1;
        if (tries === 1) throw full;
        return 'paused';
      }),
    ).toBe('paused');
    expect(tries).toBe(2);
    expect(existsSync(reservePath(db) as string)).toBe(false);
    // Nothing left to spend: the second failure is the caller's.
    expect(() => writeDespiteFullDisk(db, () => { throw full; })).toThrow('database or disk is full');
    keepReserve(db);
    tries = 0;
    expect(() => writeDespiteFullDisk(db, () => { tries += 1; throw new Error('a bug'); })).toThrow('a bug');
    expect(tries).toBe(1);
    expect(existsSync(reservePath(db) as string)).toBe(true);
  });

  it('an in-memory database needs none', () => {
    const memory = openDatabase(':memory:');
    expect(reservePath(memory)).toBeNull();
    expect(keepReserve(memory)).toBe(true);
    expect(spendReserve(memory)).toBe(false);
    memory.close();
  });
});
