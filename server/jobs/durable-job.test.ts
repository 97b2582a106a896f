import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openAndMigrate, openDatabase, type Db } from '../../db/database';
import { insertBatch } from '../reflection/batch-queries';
import { BUSY_ATTEMPTS } from './busy-retry';
import { DurableJobs, type JobWork } from './durable-job';
import type { JobKind } from './job-kind';
import { STALE_OWNER_MS } from './job-owner';
import { jobOwner } from './job-queries';

const logger = pino({ level: 'silent' });
const HOST_A = { pid: process.pid, host: 'host-a' };
const HOST_B = { pid: process.pid, host: 'host-b' };
/** Short, so a test sees several beats. */
const BEAT_MS = 20;
/** The jobs under test: rows of reflection_batches, told and settled by no one. */
const BATCHES: JobKind = { table: 'reflection_batches', noun: 'test job', progress: null, settle: null };

/** Throws `error`: for a step that fails in an expression. */
function throwing(error: Error): never {
  throw error;
}

/** A job that works until it is stopped, saying whether it was. */
function untilStopped(): JobWork & { stopped: () => boolean; started: () => boolean } {
  let started = false;
  let stopped = false;
  return {
    execute: (controller) =>
      new Promise<void>((resolve) => {
        started = true;
        controller.signal.addEventListener('abort', () => {
          stopped = true;
          resolve();
        });
      }),
    onFailure: (error) => {
      throw error;
    },
    onSettled: () => undefined,
    started: () => started,
    stopped: () => stopped,
  };
}

describe('durable jobs: two owners on one database file', () => {
  let dir: string;
  let dbA: Db;
  let dbB: Db;
  let clockB: number;
  let a: DurableJobs;
  let b: DurableJobs;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hqa-durable-job-'));
    dbA = openAndMigrate(join(dir, 'hqa.sqlite'));
    dbB = openDatabase(join(dir, 'hqa.sqlite'));
    clockB = 0;
    a = new DurableJobs({ db: dbA, logger }, BATCHES, { owner: HOST_A, heartbeatMs: BEAT_MS });
    // B's clock runs `clockB` ahead: ahead by more than STALE_OWNER_MS, A's heartbeats look stale to it.
    b = new DurableJobs({ db: dbB, logger }, BATCHES, { owner: HOST_B, heartbeatMs: BEAT_MS, now: () => Date.now() + clockB });
  });

  afterEach(async () => {
    await Promise.all([a.shutdown(), b.shutdown()]);
    dbA.close();
    dbB.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const newJob = () => insertBatch(dbA, { chartType: null, proposalIds: [1, 2], createdBy: null });

  it('a failure that cannot be recorded (a full disk) is logged, never thrown at a caller nobody awaits', async () => {
    const id = newJob();
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    const settled: string[] = [];
    const work: JobWork = {
      execute: () => Promise.reject(full),
      onFailure: () => {
        throw full;
      },
      onSettled: () => {
        settled.push('settled');
        throw full;
      },
    };
    // Before the guard, this promise rejected; the server's `void start(...)` then ended the process.
    await expect(a.start(id, work)).resolves.toBeUndefined();
    expect(settled).toEqual(['settled']);
    // Released, as after any stop: resumed by whoever asks next.
    expect(jobOwner(dbA, 'reflection_batches', id)?.owner_pid).toBeNull();
  });

  it('a job runs where it is claimed and heartbeats; another host takes it over only once the heartbeat is stale, and the first stops', async () => {
    const id = newJob();
    const workA = untilStopped();
    const runningA = a.start(id, workA);
    expect(jobOwner(dbA, 'reflection_batches', id)).toMatchObject({ owner_pid: HOST_A.pid, owner_host: 'host-a' });
    const firstBeat = jobOwner(dbA, 'reflection_batches', id)?.heartbeat_at;
    await expect.poll(() => jobOwner(dbA, 'reflection_batches', id)?.heartbeat_at).not.toBe(firstBeat);

    // Fresh heartbeat: B neither takes it as an orphan nor starts it beside A.
    const resumedByB: number[] = [];
    expect(b.takeOrphans((jobId) => resumedByB.push(jobId))).toEqual([]);
    const refused = untilStopped();
    await b.start(id, refused);
    expect(refused.started()).toBe(false);
    expect(jobOwner(dbB, 'reflection_batches', id)?.owner_host).toBe('host-a');

    // A's host falls silent, as B sees it: now the job is B's, once.
    clockB = STALE_OWNER_MS + 1_000;
    expect(b.takeOrphans((jobId) => resumedByB.push(jobId))).toEqual([id]);
    expect(resumedByB).toEqual([id]);
    expect(jobOwner(dbB, 'reflection_batches', id)?.owner_host).toBe('host-b');
    const workB = untilStopped();
    void b.start(id, workB);
    expect(workB.started()).toBe(true);

    // A's next heartbeat finds the job is no longer its own: A stops, and leaves B's ownership alone.
    await runningA;
    expect(workA.stopped()).toBe(true);
    expect(a.has(id)).toBe(false);
    expect(jobOwner(dbA, 'reflection_batches', id)?.owner_host).toBe('host-b');
    expect(workB.stopped()).toBe(false);
  });

  it('an aborted job is released: another host may take it at once, heartbeat fresh or not', async () => {
    const id = newJob();
    const work = untilStopped();
    const running = a.start(id, work);
    a.abort(id);
    await running;
    expect(work.stopped()).toBe(true);
    expect(jobOwner(dbA, 'reflection_batches', id)?.owner_pid).toBeNull();
    expect(b.takeOrphans(() => undefined)).toEqual([id]);
  });

  it('shutdown stops every job and releases each', async () => {
    const ids = [newJob(), newJob()];
    const works = ids.map((id) => {
      const work = untilStopped();
      void a.start(id, work);
      return work;
    });
    await a.shutdown();
    expect(works.map((work) => work.stopped())).toEqual([true, true]);
    expect(ids.map((id) => jobOwner(dbA, 'reflection_batches', id)?.owner_pid)).toEqual([null, null]);
    expect(b.takeOrphans(() => undefined)).toEqual(ids);
  });

  it('a start that meets a busy database is tried again; one that stays busy leaves the job unclaimed; other errors are thrown', async () => {
    const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    const quick = new DurableJobs({ db: dbA, logger }, BATCHES, { owner: HOST_A, heartbeatMs: BEAT_MS, busyBackoffMs: 1 });
    try {
      const id = newJob();
      let tries = 0;
      const work = untilStopped();
      const running = quick.start(id, { ...work, begin: () => ++tries >= 3 || throwing(busy()) });
      await vi.waitFor(() => expect(work.started()).toBe(true));
      expect(tries).toBe(3);
      expect(jobOwner(dbA, 'reflection_batches', id)?.owner_host).toBe('host-a');
      quick.abort(id);
      await running;

      const stuck = newJob();
      let stuckTries = 0;
      const never = untilStopped();
      await quick.start(stuck, { ...never, begin: () => ++stuckTries > BUSY_ATTEMPTS || throwing(busy()) });
      expect({ tries: stuckTries, started: never.started(), owner: jobOwner(dbA, 'reflection_batches', stuck)?.owner_host ?? null }).toEqual({ tries: BUSY_ATTEMPTS, started: false, owner: null });

      expect(() => quick.start(newJob(), { ...untilStopped(), begin: () => throwing(new Error('no such run')) })).toThrow('no such run');
    } finally {
      await quick.shutdown();
    }
  });

  it('a job started twice here runs once; a finished job is no orphan', async () => {
    const id = newJob();
    const first = untilStopped();
    const running = a.start(id, first);
    const second = untilStopped();
    expect(a.start(id, second)).toBe(running);
    expect(second.started()).toBe(false);
    a.abort(id);
    await running;
    dbA.prepare("UPDATE reflection_batches SET status = 'done' WHERE id = ?").run(id);
    expect(b.takeOrphans(() => undefined)).toEqual([]);
  });

  it('on this host, a job whose owner process exited is an orphan at once, and its owner died rather than released it', () => {
    const id = newJob();
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid;
    dbA.prepare("UPDATE reflection_batches SET owner_pid = ?, owner_host = ?, heartbeat_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?").run(deadPid, hostname(), id);
    const here = new DurableJobs({ db: dbB, logger }, BATCHES);
    const owner = jobOwner(dbB, 'reflection_batches', id);
    if (!owner) throw new Error(`job ${id} vanished`);
    expect(here.ownerDied(owner)).toBe(true);
    expect(here.takeOrphans(() => undefined)).toEqual([id]);
    expect(jobOwner(dbB, 'reflection_batches', id)).toMatchObject({ owner_pid: process.pid, owner_host: hostname() });
    // Released, not died: nothing was lost.
    expect(here.ownerDied({ owner_pid: null, owner_host: hostname(), heartbeat_at: null })).toBe(false);
  });
});

describe('durable jobs: the one rule for a job stopped on an error, and its progress', () => {
  let dir: string;
  let db: Db;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hqa-durable-kind-'));
    db = openAndMigrate(join(dir, 'hqa.sqlite'));
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A kind that records what it is asked to settle and tell. */
  /** `payloadMs`: how long each progress payload takes to make (spent busy, as a costly query would). */
  function recordingKind({ payloadMs = 0, now }: { payloadMs?: number; now?: () => number } = {}) {
    const settled: { id: number; to: string; reason: string }[] = [];
    const told: unknown[] = [];
    const kind: JobKind = {
      table: 'reflection_batches',
      noun: 'test job',
      progress: {
        event: 'reflection.progressed',
        payload: (id) => {
          for (const until = performance.now() + payloadMs; performance.now() < until; );
          return { batch: { id } } as never;
        },
      },
      settle: (id, to, reason) => void settled.push({ id, to, reason }),
    };
    const publish = ((event: string, payload: unknown) => void told.push([event, payload])) as never;
    return { kind, settled, told, jobs: new DurableJobs({ db, logger, publish }, kind, now ? { now } : {}) };
  }

  it('tells a costly progress less often: its payload takes at most 1% of the loop', async () => {
    let clock = 1_000_000;
    const { jobs, told } = recordingKind({ payloadMs: 5, now: () => clock });
    const id = insertBatch(db, { chartType: null, proposalIds: [1], createdBy: null });
    jobs.progressed(id, true);
    expect(told).toHaveLength(1);
    // 300 ms later a cheap payload would be told again; one of 5 ms waits 500 ms or more.
    clock += 300;
    jobs.progressed(id, false);
    expect(told).toHaveLength(1);
    clock += 10_000;
    jobs.progressed(id, false);
    expect(told).toHaveLength(2);
  });

  it('pauses for a full disk or a busy database and fails for anything else, by default', async () => {
    const { jobs, settled } = recordingKind();
    const id = insertBatch(db, { chartType: null, proposalIds: [1], createdBy: null });
    await jobs.start(id, { execute: () => Promise.reject(new Database.SqliteError('database or disk is full', 'SQLITE_FULL')) });
    await jobs.start(id, { execute: () => Promise.reject(new Database.SqliteError('database is locked', 'SQLITE_BUSY')) });
    await jobs.start(id, { execute: () => Promise.reject(new Error('the program failed')) });
    expect(settled).toEqual([
      { id, to: 'paused', reason: 'storage_unavailable: database or disk is full' },
      { id, to: 'paused', reason: 'database_busy: database is locked' },
      { id, to: 'failed', reason: 'the program failed' },
    ]);
  });

  it('tells progress at once when settled or forced, and at most every 250 ms otherwise', async () => {
    const { jobs, told } = recordingKind();
    const id = insertBatch(db, { chartType: null, proposalIds: [1], createdBy: null });
    await jobs.start(id, { execute: () => Promise.resolve() });
    expect(told).toEqual([['reflection.progressed', { batch: { id } }]]);
    jobs.progressed(id, false);
    jobs.progressed(id, false);
    expect(told).toHaveLength(1);
    jobs.progressed(id, true);
    expect(told).toHaveLength(2);
  });
});

