import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { healthApi, HealthResponseSchema } from '../../shared/api/health';
import { type Run, RunResponseSchema, runsApi } from '../../shared/api/runs';
import { FINISHED_RUN_STATUSES } from '../../shared/domain/generation';
import { onServerEvent, ServerEventSchemas, type EventSource, type ServerToClientEvents } from '../../shared/events';
import { generateDemoSplit } from '../../server/demo/demo-split';
import { importSplit } from '../../server/import/import-split';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Enough tasks that an offline run outlasts several 250 ms progress windows: 150 took 17 s
 * in-process and 47 s on the (niced) thread on a loaded 2-core machine, and the rules alone write
 * one in ~25 ms once warm, so several seconds (a dozen windows) quiet. 300 took twice as long
 * and proved nothing more.
 */
const RUN_ITEMS = 150;
const EXTRA_SPLIT = 'busy';
const POLL_MS = 20;

let server: TestServer;
let curator: TestClient;
const splitDir = mkdtempSync(join(tmpdir(), 'hqa-busy-split-'));

beforeAll(async () => {
  server = await startTestServer();
  await server.createUser('cora', 'curator', 'curator-pass-1');
  curator = new TestClient(server.url);
  await curator.login('cora', 'curator-pass-1');
  // A split of the run's own (60 charts, 172 QAs), whatever the demo split holds.
  generateDemoSplit({ dir: splitDir, split: EXTRA_SPLIT, charts: 60, seed: 5 });
  importSplit(server.server.ctx.db, splitDir, { split: EXTRA_SPLIT });
});
afterAll(async () => {
  await server.close();
  rmSync(splitDir, { recursive: true, force: true });
});

async function runStatus(runId: number): Promise<Run> {
  return (await curator.call(runsApi.get, { params: { id: runId } })).run;
}

async function openSocket(): Promise<Socket<ServerToClientEvents>> {
  const socket: Socket<ServerToClientEvents> = connectSocket(server.url, { extraHeaders: { cookie: curator.cookie }, transports: ['websocket'] });
  await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
  return socket;
}

// Both ways the offline engine can work: its rules in a thread (the default) and in-process,
// where only the executor's time slices give the event loop its turns.
describe.each([
  { threads: '1', how: 'with the rules in a thread' },
  { threads: '0', how: 'with the rules in-process' },
])('an offline run $how', ({ threads }) => {
  it('keeps answering /api/health and pushes run.progressed with growing counts while it works', { timeout: 180_000 }, async () => {
    const before = process.env.HQA_OFFLINE_THREADS;
    process.env.HQA_OFFLINE_THREADS = threads;
    const socket = await openSocket();
    try {
      let runId: number | null = null;
      // Each push is checked against the server right away: was the run still running when it arrived?
      const arrivals: Promise<{ finished: number; runningAtArrival: boolean }>[] = [];
      onServerEvent(socket as unknown as EventSource, 'run.progressed', (payload: unknown) => {
        const { run } = ServerEventSchemas['run.progressed'].parse(payload);
        if (run.id !== runId || run.status !== 'running') return;
        const finished = run.tasks_done + run.tasks_failed;
        arrivals.push(
          runStatus(run.id).then(
            (now) => ({ finished, runningAtArrival: now.status === 'running' }),
            () => ({ finished, runningAtArrival: false }),
          ),
        );
      });

      const created = await curator.send(runsApi.create, { body: { engine: 'offline', stage: 'items', split: EXTRA_SPLIT, items: RUN_ITEMS, only_new_qas: false } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      runId = RunResponseSchema.parse(created.body).run.id;

      let healthWhileRunning = 0;
      let run = await runStatus(runId);
      while (!FINISHED_RUN_STATUSES.includes(run.status)) {
        const health = await curator.send(healthApi.get);
        expect(health.status).toBe(200);
        HealthResponseSchema.parse(health.body);
        run = await runStatus(runId);
        // Health answered, and the run had not ended by the time it had.
        if (run.status === 'running') healthWhileRunning++;
        // Polled like a monitor would, not in a tight loop that leaves the server nothing else to do.
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
      expect(run).toMatchObject({ status: 'done', tasks_total: RUN_ITEMS });
      expect(healthWhileRunning).toBeGreaterThan(0);

      const received = (await Promise.all(arrivals)).filter((a) => a.runningAtArrival);
      expect(received.length).toBeGreaterThanOrEqual(3);
      const counts = received.map((a) => a.finished);
      expect(counts).toEqual([...counts].sort((a, b) => a - b));
      expect(counts.at(-1)).toBeGreaterThan(counts[0] ?? Infinity);
      expect(counts.at(-1)).toBeLessThan(RUN_ITEMS);
    } finally {
      socket.close();
      if (before === undefined) delete process.env.HQA_OFFLINE_THREADS;
      else process.env.HQA_OFFLINE_THREADS = before;
    }
  });
});
