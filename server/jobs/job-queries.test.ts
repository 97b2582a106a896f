import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAndMigrate, type Db } from '../../db/database';
import { insertBatch } from '../reflection/batch-queries';
import { claimJob, heartbeatJob, JOB_TABLES, jobOwner, releaseJob, unfinishedJobs, type JobTable } from './job-queries';

const ME = { pid: 101, host: 'here' };
const OTHER = { pid: 202, host: 'there' };

describe('job ownership SQL', () => {
  let dir: string;
  let db: Db;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hqa-job-queries-'));
    db = openAndMigrate(join(dir, 'hqa.sqlite'));
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fits every job table of the schema', () => {
    for (const table of Object.keys(JOB_TABLES) as JobTable[]) expect(unfinishedJobs(db, table)).toEqual([]);
  });

  it('claims only from the owner it was judged by, heartbeats and releases only for its owner', () => {
    const id = insertBatch(db, { chartType: null, proposalIds: [1], createdBy: null });
    const free = jobOwner(db, 'reflection_batches', id);
    if (!free) throw new Error(`batch ${id} vanished`);
    expect(claimJob(db, 'reflection_batches', id, ME, free)).toBe(true);
    // Another process judged the same free owner: it comes second and gets nothing.
    expect(claimJob(db, 'reflection_batches', id, OTHER, free)).toBe(false);
    expect(heartbeatJob(db, 'reflection_batches', id, OTHER)).toBe(false);
    expect(heartbeatJob(db, 'reflection_batches', id, ME)).toBe(true);
    releaseJob(db, 'reflection_batches', id, OTHER);
    expect(jobOwner(db, 'reflection_batches', id)).toMatchObject({ owner_pid: ME.pid, owner_host: ME.host });
    releaseJob(db, 'reflection_batches', id, ME);
    expect(jobOwner(db, 'reflection_batches', id)?.owner_pid).toBeNull();
    expect(heartbeatJob(db, 'reflection_batches', id, ME)).toBe(false);
    expect(unfinishedJobs(db, 'reflection_batches').map((job) => job.id)).toEqual([id]);
  });
});
