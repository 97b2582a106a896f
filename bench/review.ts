import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { NextResponseSchema, type ReviewTask } from '../shared/api/review';
import { loadConfig } from '../server/config';
import { findClaimable, nowIso } from '../server/review/review-queries';
import { startServer } from '../server/start-server';
import { createUser } from '../server/users/user-service';
import { acceptReview } from '../test/support/review-fixtures';
import { startServerProcess, stopProcess, type ServerProcess } from '../test/support/server-process';
import { connectAs, type TestSocket } from '../test/support/socket-client';
import { openAndMigrate } from '../db/database';
import { TestClient } from '../test/support/http-client';

/**
 * Review benchmark: N items (default 100,000) in the database, B reviewers (default 50) signed
 * in, each with the review page's socket open. Scenarios, each timed from outside the server:
 *   - first burst: all B reviewers claim at once on a server that has just started;
 *   - saturated and paced: R of them (default 20) claim and submit in a loop, without pause
 *     and with a person's pause (sped up) between items;
 *   - warm burst: all B claim at once again, on a warmed-up server.
 * Prints p50/p95/p99 per scenario next to the bare SQLite claim statement (the floor) and the
 * ratio to it. The server runs as in production (its own process, NODE_ENV=production, logging
 * at info into a pipe). Targets: paced p99 < 20 ms, saturated p99 < 30 ms, first burst p99 < 100 ms.
 *   npm run bench:review -- [items] [reviewers] [rounds] [burst]
 * BENCH_THINK_MS (250) the paced pause, BENCH_LOG_LEVEL (info) the server's log level,
 * BENCH_SOCKETS=0 no sockets, BENCH_CPU_PROF=<dir> writes the server's .cpuprofile there.
 */
const ITEMS = Number(process.argv[2] ?? 100_000);
const REVIEWERS = Number(process.argv[3] ?? 20);
const ROUNDS = Number(process.argv[4] ?? 25);
const BURST = Math.max(REVIEWERS, Number(process.argv[5] ?? 50));
/** Pause between a reviewer's submit and their next claim in the paced phase: a person takes ~20 s per item; this is ~80× faster. */
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 250);
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const SOCKETS = process.env.BENCH_SOCKETS !== '0';
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF;
const TARGETS = { paced: 20, saturated: 30, burst: 100 };

const dir = mkdtempSync(join(tmpdir(), 'hqa-bench-review-'));
const dbPath = join(dir, 'bench.sqlite');
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const loadBefore = load();
// Prepare the database in this process (first start imports the demo split), then run the
// server in a process of its own, as in production, so the clients' work is not on its thread.
const setup = await startServer({ ...loadConfig({}), dbPath, port: 0, logLevel: 'silent' }, pino({ level: 'silent' }));
let child: ServerProcess | null = null;
const sockets: TestSocket[] = [];
try {
  const { db } = setup.ctx;
  // Items are copies of one template row over the demo charts' questions: the queue only
  // cares about status, ids and leases.
  const qa = db.prepare('SELECT q.id, q.chart_id FROM factual_qas q LIMIT 1').get() as { id: number; chart_id: number };
  // Classified as stored items are (else the server's start classifies all of them first).
  const insert = db.prepare(`INSERT INTO hqa_items (qa_id, chart_id, origin, assumption, question, answer, answer_type, rationale, affects_answer, edit, program, verifier, verifier_match, question_relation)
    VALUES (?, ?, 'human', 'Suppose x.', 'Suppose x. What is y?', '1', 'integer', 'r', 1, NULL, '1', ?, 1, 'different')`);
  const verifier = JSON.stringify({ recomputed_answer: '1', answer_type: 'integer', match: true, lint: [], error: null });
  db.transaction(() => {
    for (let i = 0; i < ITEMS; i++) insert.run(qa.id, qa.chart_id, verifier);
  })();

  for (let i = 0; i < BURST; i++) await createUser(db, `bench${i}`, 'reviewer', `bench-pass-${i}`);
  await setup.close();
  const nodeArgs = CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`] : [];
  child = await startServerProcess({ HQA_DB: dbPath, HQA_LOG_LEVEL: LOG_LEVEL, NODE_ENV: 'production' }, nodeArgs);
  const server = child;
  const clients: TestClient[] = [];
  for (let i = 0; i < BURST; i++) {
    const client = new TestClient(server.url);
    await client.login(`bench${i}`, `bench-pass-${i}`);
    clients.push(client);
    if (SOCKETS) sockets.push(await connectAs(server.url, client));
  }
  const tasks = new Map<TestClient, ReviewTask>();

  async function timed<T>(into: number[], request: () => Promise<T>): Promise<T> {
    const start = performance.now();
    const result = await request();
    into.push(performance.now() - start);
    return result;
  }
  async function claim(client: TestClient, into: number[]): Promise<ReviewTask | null> {
    const res = await timed(into, () => client.post('/api/review/next', {}));
    if (res.status !== 200) throw new Error(`claim failed: ${res.status} ${JSON.stringify(res.body)}`);
    const task = NextResponseSchema.parse(res.body).task;
    if (task) tasks.set(client, task);
    else tasks.delete(client);
    return task;
  }
  async function submit(client: TestClient, into: number[]): Promise<void> {
    const task = tasks.get(client);
    if (!task) return;
    const res = await timed(into, () => client.post(`/api/review/items/${task.item.id}`, acceptReview()));
    if (res.status !== 201) throw new Error(`submit failed: ${res.status} ${JSON.stringify(res.body)}`);
    tasks.delete(client);
  }
  /** Every client claims at the same moment. */
  async function burst(): Promise<number[]> {
    const claims: number[] = [];
    await Promise.all(clients.map((client) => claim(client, claims)));
    return claims;
  }
  /** Every one of the first R reviewers claims and submits in a loop, `thinkMs` between items. */
  async function phase(thinkMs: number): Promise<{ claims: number[]; submits: number[] }> {
    const claims: number[] = [];
    const submits: number[] = [];
    await Promise.all(
      clients.slice(0, REVIEWERS).map(async (client) => {
        for (let round = 0; round < ROUNDS; round++) {
          if (!(await claim(client, claims))) return;
          await submit(client, submits);
          if (thinkMs > 0) await new Promise((r) => setTimeout(r, Math.random() * 2 * thinkMs));
        }
      }),
    );
    return { claims, submits };
  }
  const firstBurst = await burst();
  await Promise.all(clients.map((client) => submit(client, [])));
  await phase(THINK_MS); // warm-up: JIT, caches
  const saturated = await phase(0);
  const paced = await phase(THINK_MS);
  await Promise.all(clients.map((client) => submit(client, [])));
  const warmBurst = await burst();
  for (const socket of sockets) socket.close();
  await stopProcess(server.child, 'SIGTERM');
  child = null;

  const db2 = openAndMigrate(dbPath);
  const floor: number[] = [];
  for (let i = 0; i < 500; i++) {
    const start = performance.now();
    findClaimable(db2, { status: 'pending', reviewerId: 1, now: nowIso(), k: 1, filters: { mismatch_first: false }, mismatchOnly: false, exclude: [] });
    floor.push(performance.now() - start);
  }
  db2.close();
  const pct = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
  };
  const floorP50 = pct(floor, 50);
  const ms = (v: number) => `${v.toFixed(2).padStart(7)} ms`;
  const line = (name: string, v: number[]) =>
    `${name.padEnd(30)} p50 ${ms(pct(v, 50))}  p95 ${ms(pct(v, 95))}  p99 ${ms(pct(v, 99))}  p50/floor ${(pct(v, 50) / floorP50).toFixed(0).padStart(4)}×  (n=${v.length})`;
  console.log(
    `${ITEMS} items, ${BURST} reviewers signed in (${SOCKETS ? 'each with a socket' : 'no sockets'}), ${REVIEWERS} in the loops, ${ROUNDS} claims + submits each per phase; server log level ${LOG_LEVEL}`,
  );
  console.log(`load average before ${loadBefore}, after ${load()}`);
  console.log(`first burst (${BURST} reviewers claim at once on a server just started):`);
  console.log(line('  POST /api/review/next', firstBurst));
  console.log(`saturated (no pause: ${REVIEWERS} requests always in flight on one server thread):`);
  console.log(line('  POST /api/review/next', saturated.claims));
  console.log(line('  POST /api/review/items/:id', saturated.submits));
  console.log(`paced (mean ${THINK_MS} ms between items per reviewer):`);
  console.log(line('  POST /api/review/next', paced.claims));
  console.log(line('  POST /api/review/items/:id', paced.submits));
  console.log(`warm burst (${BURST} reviewers claim at once again):`);
  console.log(line('  POST /api/review/next', warmBurst));
  console.log(line('bare claim SELECT (floor)', floor));
  const verdict = (v: number[], target: number) => `${pct(v, 99) < target ? 'met' : 'MISSED'}`;
  console.log(
    `targets p99: paced < ${TARGETS.paced} ms claim ${verdict(paced.claims, TARGETS.paced)}, submit ${verdict(paced.submits, TARGETS.paced)}; ` +
      `saturated < ${TARGETS.saturated} ms claim ${verdict(saturated.claims, TARGETS.saturated)}, submit ${verdict(saturated.submits, TARGETS.saturated)}; ` +
      `first burst < ${TARGETS.burst} ms ${verdict(firstBurst, TARGETS.burst)}`,
  );
} finally {
  for (const socket of sockets) socket.close();
  if (child) await stopProcess(child.child, 'SIGTERM');
  await setup.close();
  rmSync(dir, { recursive: true, force: true });
}
