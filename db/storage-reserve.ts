import { closeSync, openSync, rmSync, statfsSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Db } from './database';
import { isStorageFailure } from './storage-errors';

/**
 * Room set aside beside a database file for the one write that matters when its disk fills:
 * a job recording that it paused. On a disk filled to the last byte even that write fails, and
 * the job would stay `running` with nobody working it; deleting the reserve frees room for it.
 * A resume sets the reserve aside again first, which is also how it knows there is room again.
 * Plenty for a pause: a few WAL frames of 4 KiB.
 */
export const RESERVE_BYTES = 1024 * 1024;

export function reservePath(db: Db): string | null {
  return db.memory || db.name === '' ? null : `${db.name}-reserve`;
}

/** Whether the reserve is in place: set aside now if it was not (false: no room for it). An in-memory database needs none. */
export function keepReserve(db: Db): boolean {
  const path = reservePath(db);
  if (path === null) return true;
  try {
    if (statSync(path).size >= RESERVE_BYTES) return true;
  } catch {
    // Not there yet: written below.
  }
  try {
    const fd = openSync(path, 'w');
    try {
      // Zeros written, not a sparse file: the blocks must really be taken, to be given back.
      writeSync(fd, Buffer.alloc(RESERVE_BYTES));
    } finally {
      closeSync(fd);
    }
    return true;
  } catch (error) {
    rmSync(path, { force: true });
    if ((error as NodeJS.ErrnoException).code === 'ENOSPC' || (error as NodeJS.ErrnoException).code === 'EDQUOT') return false;
    throw error;
  }
}

/**
 * Whether work may go on writing: the reserve is in place (set aside now if it was not) and the
 * disk has at least as much free again beside it. A reserve alone proves nothing: it may have
 * been set aside before the disk filled, or just now with the last free megabyte.
 */
export function roomToWork(db: Db): boolean {
  if (!keepReserve(db)) return false;
  const path = reservePath(db);
  if (path === null) return true;
  const { bavail, bsize } = statfsSync(dirname(path));
  return bavail * bsize >= RESERVE_BYTES;
}

/** Gives the reserve back to the disk; whether there was one to give. */
export function spendReserve(db: Db): boolean {
  const path = reservePath(db);
  if (path === null) return false;
  try {
    statSync(path);
  } catch {
    return false;
  }
  rmSync(path, { force: true });
  return true;
}

/**
 * Runs `write` (a pause, a stop reason) on a disk that may be full: when it fails for storage,
 * the reserve is spent and it is tried once more. Whatever it throws then is the caller's.
 */
export function writeDespiteFullDisk<T>(db: Db, write: () => T): T {
  try {
    return write();
  } catch (error) {
    if (!isStorageFailure(error) || !spendReserve(db)) throw error;
    return write();
  }
}
