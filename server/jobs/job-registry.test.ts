import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/support/test-server';
import type { JobExecutor } from './job-kind';
import { JobRegistry } from './job-registry';
import { JOB_TABLES, type JobTable } from './job-queries';

/** An executor that records what the registry asks of it. */
function fake(table: JobTable, orphans: number[] = []): JobExecutor & { stopped: boolean } {
  return {
    kind: { table, noun: `${table} job` },
    stopped: false,
    resumeOrphans: () => orphans,
    async shutdown() {
      this.stopped = true;
    },
  };
}

const ALL = Object.keys(JOB_TABLES) as JobTable[];

describe('JobRegistry: every durable job kind in one list', () => {
  it('refuses a job table with no executor, and one with two', () => {
    expect(() => new JobRegistry(ALL.filter((table) => table !== 'extraction_jobs').map((table) => fake(table)))).toThrow(/job table extraction_jobs has no executor registered/);
    expect(() => new JobRegistry([...ALL.map((table) => fake(table)), fake('runs')])).toThrow(/job table runs has more than one executor registered/);
  });

  it('resumes each kind’s orphans with one log line per kind that had any, and shuts every kind down', async () => {
    const lines: { table?: string; jobs?: number[]; msg: string }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as { msg: string }) });
    const executors = ALL.map((table) => fake(table, table === 'runs' ? [3, 4] : table === 'chart_type_jobs' ? [9] : []));
    const registry = new JobRegistry(executors);
    expect(registry.resumeOrphans(logger)).toEqual({ runs: [3, 4], chart_type_jobs: [9] });
    expect(lines.map(({ table, jobs, msg }) => ({ table, jobs, msg }))).toEqual([
      { table: 'runs', jobs: [3, 4], msg: 'resumed 2 runs jobs left unfinished' },
      { table: 'chart_type_jobs', jobs: [9], msg: 'resumed 1 chart_type_jobs job left unfinished' },
    ]);
    await registry.shutdown();
    expect(executors.every((executor) => executor.stopped)).toBe(true);
  });
});

describe('the server’s registry', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ demo: false });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('holds one executor for each job table, the ones the routes use', () => {
    const { jobs, executor, evalExecutor, reflectionBatches, extractionJobs, chartTypeJobs } = server.server;
    expect(new Set(jobs.tables)).toEqual(new Set(ALL));
    expect(jobs.tables).toHaveLength(ALL.length);
    expect([executor, evalExecutor, reflectionBatches, extractionJobs, chartTypeJobs].map((one) => one.kind.table).sort()).toEqual([...ALL].sort());
  });
});
