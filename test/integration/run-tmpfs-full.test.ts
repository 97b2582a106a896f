import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, rmdirSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getRun } from '../../server/generation/run-queries';
import { RunConfigSchema } from '../../shared/api/runs';
import { runLedger } from '../support/factories';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Issue 34 point 3, on a real full file system: the database lives on a small tmpfs, and while a
 * run writes items a file fills the rest of it, so SQLite meets ENOSPC from the kernel (not a
 * page limit it set itself). The run pauses for storage, the server keeps answering, and once
 * the file is gone a resume finishes the run with nothing lost or made twice.
 *
 * Mounting needs root (CI runs as root); elsewhere the test says why it is skipped.
 */
const TMPFS_SIZE = '24m';

function mountTmpfs(): string | null {
  if (process.getuid?.() !== 0) return null;
  const dir = mkdtempSync(join(tmpdir(), 'hqa-tmpfs-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${TMPFS_SIZE}`, 'tmpfs', dir]);
  if (mounted.status !== 0) {
    rmdirSync(dir);
    return null;
  }
  return dir;
}

/** Writes zeros to `path` until the file system is full; the bytes written. */
function fillUp(path: string): number {
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  let written = 0;
  try {
    for (;;) written += writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return written;
}

const mount = mountTmpfs();

describe.skipIf(mount === null)('a run whose disk fills up while it writes (a real tmpfs; needs root to mount)', () => {
  let server: TestServer;
  const dir = mount ?? '';

  beforeAll(async () => {
    server = await startTestServer({ config: { dbPath: join(dir, 'hqa.sqlite') } });
  });
  afterAll(async () => {
    await server?.close();
    spawnSync('umount', [dir]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('pauses for storage with the server up, and finishes when resumed with room again: none lost, none twice', async () => {
    const { db } = server.server.ctx;
    const { executor } = server.server;
    const run = executor.createRun(RunConfigSchema.parse({ engine: 'offline', stage: 'items', items: 200 }), null);
    const running = executor.start(run.id);
    // Fill the disk once the run is under way: its next writes meet a full file system.
    await expect.poll(() => getRun(db, run.id)?.items_created ?? 0, { interval: 5, timeout: 30_000 }).toBeGreaterThan(0);
    const filler = join(dir, 'filler.bin');
    expect(fillUp(filler)).toBeGreaterThan(0);
    await running;

    const paused = getRun(db, run.id);
    expect(paused?.status).toBe('paused');
    expect(paused?.stop_reason).toMatch(/^storage_unavailable: /);
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);

    // The pause was written with the room set aside for it; a resume before space is back is refused, and the run stays paused.
    const reserve = `${join(dir, 'hqa.sqlite')}-reserve`;
    await expect(executor.resume(run.id)).rejects.toThrow(/stays paused: the disk of the database is still full/);
    expect(getRun(db, run.id)?.status).toBe('paused');

    rmSync(filler);
    await executor.resume(run.id);
    expect(existsSync(reserve)).toBe(true);
    await executor.start(run.id);
    const done = getRun(db, run.id);
    expect(done?.status).toBe('done');
    const ledger = runLedger(db, run.id);
    expect(ledger.items).toBe(done?.items_created);
    expect(ledger.madeTwice).toEqual([]);
    // The demo's image-only chart fails its tasks for want of a table, as in any run; none failed for the disk.
    for (const error of ledger.failedErrors) expect(error).toMatch(/has no data table \(image only\)/);
    expect(ledger.unsettled).toBe(0);
  }, 120_000);
});
