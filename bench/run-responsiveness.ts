import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io as connectSocket } from 'socket.io-client';
import { openAndMigrate } from '../db/database';
import { RunDetailResponseSchema, RunResponseSchema, type Run } from '../shared/api/runs';
import { FINISHED_RUN_STATUSES } from '../shared/domain/generation';
import { onServerEvent, ServerEventSchemas } from '../shared/events';
import { generateDemoSplit } from '../server/demo/demo-split';
import { importSplit } from '../server/import/import-split';
import { createUser } from '../server/users/user-service';
import { TestClient } from '../test/support/http-client';
import { startServerProcess, stopProcess } from '../test/support/server-process';

/**
 * Is the server still responsive while an offline run works? Starts the real server as its own
 * process (so a blocked event loop there cannot also stall the clock here) on a temporary
 * SQLite file holding a generated demo split big enough for the run, starts an N-item offline
 * Stage-2 run (default 5,000) over HTTP, polls GET /api/health every 20 ms while the run is
 * running, and prints the health latency (p50/p99/max; target p99 < 50 ms), the run's items
 * per second and the `run.progressed` events a socket.io client received meanwhile.
 *   npm run bench:responsiveness -- [items]
 */
const items = Number(process.argv[2] ?? 5000);
const POLL_MS = 20;
const TARGET_P99_MS = 50;
const IDLE_POLLS = 100;
/** Demo charts carry about three factual QAs each; counting two leaves room for that to vary. */
const QAS_PER_CHART = 2;

const dir = mkdtempSync(join(tmpdir(), 'hqa-bench-responsive-'));
const dbPath = join(dir, 'bench.sqlite');

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const setupStart = performance.now();
const split = generateDemoSplit({ dir: join(dir, 'split'), split: 'bench', charts: Math.ceil(items / QAS_PER_CHART), seed: 11 });
if (split.qas < items) throw new Error(`the demo split has ${split.qas} factual QAs, fewer than the ${items} the run needs`);
const db = openAndMigrate(dbPath);
importSplit(db, join(dir, 'split'), { split: 'bench' });
await createUser(db, 'bench', 'curator', 'bench-pass-1');
db.close();
console.log(`setup: ${split.charts} charts, ${split.qas} factual QAs imported in ${((performance.now() - setupStart) / 1000).toFixed(1)} s`);

const server = await startServerProcess({ HQA_DB: dbPath, HQA_DEMO: 'false', HQA_CLIENT_DIR: join(dir, 'no-client') });
try {
  const client = new TestClient(server.url);
  await client.login('bench', 'bench-pass-1');
  const socket = connectSocket(server.url, { extraHeaders: { cookie: client.cookie }, transports: ['websocket'] });
  await new Promise<void>((resolve) => socket.on('connect', () => resolve()));

  // The same polling with nothing running: what this machine gives at best.
  const idle: number[] = [];
  for (let i = 0; i < IDLE_POLLS; i++) {
    const sent = performance.now();
    await (await fetch(`${server.url}/api/health`)).arrayBuffer();
    idle.push(performance.now() - sent);
    await sleep(Math.max(0, POLL_MS - (performance.now() - sent)));
  }
  idle.sort((a, b) => a - b);

  let runId: number | null = null;
  const progressed: { at: number; finished: number; status: Run['status'] }[] = [];
  onServerEvent(socket, 'run.progressed', (payload: unknown) => {
    const { run } = ServerEventSchemas['run.progressed'].parse(payload);
    if (run.id === runId) progressed.push({ at: performance.now(), finished: run.tasks_done + run.tasks_failed, status: run.status });
  });

  let running = true;
  const latencies: number[] = [];
  let failedPolls = 0;
  const poller = (async () => {
    while (running) {
      const sent = performance.now();
      try {
        const res = await fetch(`${server.url}/api/health`);
        await res.arrayBuffer();
        if (running) latencies.push(performance.now() - sent);
      } catch {
        // A server stalled past its keep-alive timeout resets the connection: the wait still counts.
        failedPolls++;
        if (running) latencies.push(performance.now() - sent);
      }
      await sleep(Math.max(0, POLL_MS - (performance.now() - sent)));
    }
  })();

  // Polling starts before the POST: a run that blocks the loop also holds back the POST's answer.
  const started = performance.now();
  const created = await client.post('/api/runs', { engine: 'offline', stage: 'items', items, only_new_qas: true });
  if (created.status !== 201) throw new Error(`POST /api/runs: ${created.status} ${JSON.stringify(created.body)}`);
  runId = RunResponseSchema.parse(created.body).run.id;
  let run: Run;
  for (;;) {
    await sleep(100);
    const detail = await client.get(`/api/runs/${runId}`).catch(() => null);
    if (!detail) continue;
    run = RunDetailResponseSchema.parse(detail.body).run;
    if (FINISHED_RUN_STATUSES.includes(run.status) || run.status === 'paused') break;
  }
  running = false;
  await poller;
  const wallMs = performance.now() - started;
  socket.close();

  const sorted = [...latencies].sort((a, b) => a - b);
  const p99 = percentile(sorted, 99);
  const runSeconds = run.started_at && run.finished_at ? (Date.parse(run.finished_at) - Date.parse(run.started_at)) / 1000 : wallMs / 1000;
  const tasks = run.tasks_done + run.tasks_failed;
  const duringRun = progressed.filter((p) => p.status === 'running');
  const gaps = duringRun.slice(1).map((p, i) => p.at - (duringRun[i]?.at ?? p.at));
  console.log(`run ${run.id} ${run.status}: ${tasks} tasks (${run.items_created} items, ${run.items_declined} no item possible, ${run.items_failed} failed) in ${runSeconds.toFixed(2)} s`);
  console.log(`throughput: ${(tasks / runSeconds).toFixed(0)} tasks/s, ${(run.items_created / runSeconds).toFixed(0)} items created/s`);
  console.log(
    `/api/health during the run (${latencies.length} polls, every ${POLL_MS} ms): p50 ${percentile(sorted, 50).toFixed(1)} ms, ` +
      `p99 ${p99.toFixed(1)} ms, max ${(sorted.at(-1) ?? Number.NaN).toFixed(1)} ms (target p99 < ${TARGET_P99_MS} ms: ${p99 < TARGET_P99_MS ? 'met' : 'MISSED'})` +
      (failedPolls ? `; ${failedPolls} polls ended in a connection reset (counted until the reset)` : ''),
  );
  console.log(`/api/health idle, before the run (${IDLE_POLLS} polls): p50 ${percentile(idle, 50).toFixed(1)} ms, p99 ${percentile(idle, 99).toFixed(1)} ms, max ${(idle.at(-1) ?? Number.NaN).toFixed(1)} ms`);
  console.log(
    `run.progressed while running: ${duringRun.length} events` +
      (gaps.length ? `, longest gap ${Math.max(...gaps).toFixed(0)} ms` : '') +
      `; ${progressed.length} in all`,
  );
} finally {
  await stopProcess(server.child, 'SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
