import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../server/config';
import { availableFor, findClaimable, findNextClaim, nowIso } from '../server/review/review-queries';
import { startServer } from '../server/start-server';
import { createUser } from '../server/users/user-service';
import { acceptReview } from '../test/support/review-fixtures';
import { startServerProcess, stopProcess, type ServerProcess } from '../test/support/server-process';
import { openAndMigrate } from '../db/database';
import { TestClient } from '../test/support/http-client';
import { KeepAliveClient } from './keep-alive-client';

/**
 * Review benchmark: N items (default 100,000) in the database, B reviewers (default 50) signed
 * in, each with the review page's socket open. Scenarios, each timed from outside the server:
 *   - first burst: all B reviewers claim at once on a server that has just started;
 *   - saturated and paced: R of them (default 20) claim and submit in a loop, without pause
 *     and with a person's pause (sped up) between items, on a server warmed up until its CPU
 *     per request has settled (V8 optimises per-request code only after thousands of requests);
 *   - warm burst: all B claim at once again, on a warmed-up server.
 * Prints p50/p95/p99 per scenario next to the bare SQLite claim statement (the floor) and the
 * ratio to it, and the CPU time each process spent per request (a figure the other load on a
 * shared machine moves far less than latency). The server runs as in production (its own
 * process, NODE_ENV=production, logging at info into a pipe); the reviewers' pages (sockets)
 * run in a third process (bench/review-sockets.ts), as browsers are not the timing client.
 * Targets: paced p99 < 20 ms, saturated p99 < 30 ms, first burst p99 < 100 ms.
 *   npm run bench:review -- [items] [reviewers] [rounds] [burst]
 * BENCH_THINK_MS (250) the paced pause, BENCH_WARM_UP_ROUNDS (4) saturated rounds before the phases, BENCH_LOG_LEVEL (info) the server's log level,
 * BENCH_SOCKETS=0 no sockets, BENCH_CPU_PROF=<dir> writes the server's .cpuprofile there,
 * BENCH_NODE_ARGS more Node options for the server (e.g. `--trace-gc`), BENCH_SERVER_OUT=<file>
 * keeps the server's output there. Timed from the request's start to its answer's last byte
 * over a keep-alive connection per reviewer (keep-alive-client.ts). Each phase also prints how
 * long the server's main thread waited in the run queue for a CPU and the host's steal: with
 * 20 requests in flight, every ms of such waiting is added to the 20 answers then queued, so
 * those two figures say whether a tail came from the server's code or from its machine.
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
/** Saturated rounds of warm-up (each is ROUNDS × REVIEWERS × 2 requests). */
const WARM_UP_ROUNDS = Number(process.env.BENCH_WARM_UP_ROUNDS ?? 4);

const dir = mkdtempSync(join(tmpdir(), 'hqa-bench-review-'));
const dbPath = join(dir, 'bench.sqlite');
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const loadBefore = load();
// Prepare the database in this process (first start imports the demo split), then run the
// server in a process of its own, as in production, so the clients' work is not on its thread.
const setup = await startServer({ ...loadConfig({}), dbPath, port: 0, logLevel: 'silent' }, pino({ level: 'silent' }));
let child: ServerProcess | null = null;
let socketsProcess: ChildProcessWithoutNullStreams | null = null;

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux). */
function cpuMsOf(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return NaN;
  }
}
/**
 * The server's main thread's time on a CPU and waiting in the run queue for one (ms, from
 * /proc/<pid>/schedstat, Linux): a request waits out every ms the thread is runnable but not
 * running, whatever the server's code does.
 */
function schedMsOf(pid: number | undefined): { run: number; wait: number } {
  if (pid === undefined) return { run: NaN, wait: NaN };
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    return { run: (run ?? NaN) / 1e6, wait: (wait ?? NaN) / 1e6 };
  } catch {
    return { run: NaN, wait: NaN };
  }
}
/** The machine's CPU time in ticks, all and stolen by the host (a VM's vCPU not running while it wanted to), from /proc/stat. */
function machineTicks(): { all: number; steal: number } {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
    return { all: fields.reduce((a, b) => a + b, 0), steal: fields[7] ?? NaN };
  } catch {
    return { all: NaN, steal: NaN };
  }
}
const ownCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** One line from the sockets process that `accept` takes. */
function lineFrom(child: ChildProcessWithoutNullStreams, accept: (line: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      const found = lines.find(accept);
      if (found === undefined) return;
      child.stdout.off('data', onData);
      child.off('exit', onExit);
      resolve(found);
    };
    const onExit = (code: number | null) => reject(new Error(`sockets process exited with ${code}`));
    child.stdout.on('data', onData);
    child.once('exit', onExit);
  });
}
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
  const nodeArgs = [...(CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`] : []), ...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [])];
  child = await startServerProcess({ HQA_DB: dbPath, HQA_LOG_LEVEL: LOG_LEVEL, NODE_ENV: 'production' }, nodeArgs);
  const server = child;
  const cookies: string[] = [];
  for (let i = 0; i < BURST; i++) {
    const client = new TestClient(server.url);
    await client.login(`bench${i}`, `bench-pass-${i}`);
    cookies.push(client.cookie);
  }
  const clients = cookies.map((cookie) => new KeepAliveClient(server.url, cookie));
  if (SOCKETS) {
    const sockets = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'review-sockets.ts')]);
    socketsProcess = sockets;
    sockets.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    const ready = lineFrom(sockets, (l) => l === 'ready');
    sockets.stdin.write(`${JSON.stringify({ url: server.url, cookies })}\n`);
    await ready;
  }
  const eventsReceived = async (): Promise<number> => {
    if (!socketsProcess) return 0;
    const answer = lineFrom(socketsProcess, (l) => /^\d+$/.test(l));
    socketsProcess.stdin.write('count\n');
    return Number(await answer);
  };
  /**
   * CPU ms per request of the server, this process and the sockets process over `run`; how long
   * the server's main thread ran and waited for a CPU; the host's steal over the same span.
   */
  interface Cpu {
    server: number;
    client: number;
    sockets: number;
    requests: number;
    events: number;
    mainRun: number;
    mainWait: number;
    stealShare: number;
  }
  async function withCpu<T extends { requests: number }>(run: () => Promise<T>): Promise<T & { cpu: Cpu }> {
    const events = await eventsReceived();
    const before = { server: cpuMsOf(server.child.pid), client: ownCpuMs(), sockets: cpuMsOf(socketsProcess?.pid), sched: schedMsOf(server.child.pid), ticks: machineTicks() };
    const result = await run();
    const sched = schedMsOf(server.child.pid);
    const ticks = machineTicks();
    const cpu = {
      server: cpuMsOf(server.child.pid) - before.server,
      client: ownCpuMs() - before.client,
      sockets: SOCKETS ? cpuMsOf(socketsProcess?.pid) - before.sockets : 0,
      requests: result.requests,
      events: (await eventsReceived()) - events,
      mainRun: sched.run - before.sched.run,
      mainWait: sched.wait - before.sched.wait,
      stealShare: (ticks.steal - before.ticks.steal) / (ticks.all - before.ticks.all),
    };
    return { ...result, cpu };
  }
  /** The item each reviewer holds: only its id is read (the contract tests check the whole answer). */
  const tasks = new Map<KeepAliveClient, number>();

  /** Times a request from its start to its answer's last byte, then reads the answer. */
  async function timed(into: number[], client: KeepAliveClient, path: string, body: unknown): Promise<{ status: number; text: string }> {
    const start = performance.now();
    const res = await client.post(path, body);
    into.push(res.at - start);
    return res;
  }
  async function claim(client: KeepAliveClient, into: number[]): Promise<number | null> {
    const res = await timed(into, client, '/api/review/next', {});
    if (res.status !== 200) throw new Error(`claim failed: ${res.status} ${res.text}`);
    const id = (JSON.parse(res.text) as { task: { item: { id: number } } | null }).task?.item.id ?? null;
    if (id !== null) tasks.set(client, id);
    else tasks.delete(client);
    return id;
  }
  async function submit(client: KeepAliveClient, into: number[]): Promise<void> {
    const id = tasks.get(client);
    if (id === undefined) return;
    const res = await timed(into, client, `/api/review/items/${id}`, acceptReview());
    if (res.status !== 201) throw new Error(`submit failed: ${res.status} ${res.text}`);
    tasks.delete(client);
  }
  /** Every client claims at the same moment. */
  async function burst(): Promise<{ claims: number[]; requests: number }> {
    const claims: number[] = [];
    await Promise.all(clients.map((client) => claim(client, claims)));
    return { claims, requests: claims.length };
  }
  /** Every one of the first R reviewers claims and submits in a loop, `thinkMs` between items. */
  async function phase(thinkMs: number): Promise<{ claims: number[]; submits: number[]; requests: number }> {
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
    return { claims, submits, requests: claims.length + submits.length };
  }
  const first = await withCpu(burst);
  const firstBurst = first.claims;
  await Promise.all(clients.map((client) => submit(client, [])));
  // Warm-up. V8 optimises a function once it has run enough, and one run once per request only
  // after a thousand or more requests, so a new server's CPU per request falls for its first few
  // thousand (about 1.6 -> 0.85 ms here, settled after some 4,000). The phases below measure the
  // server once it has settled; the warm-up's figures are printed, to show that it has.
  await phase(THINK_MS);
  const warmUpCpu: number[] = [];
  for (let round = 0; round < WARM_UP_ROUNDS; round++) {
    const { cpu } = await withCpu(() => phase(0));
    warmUpCpu.push(cpu.server / cpu.requests);
  }
  const saturated = await withCpu(() => phase(0));
  const paced = await withCpu(() => phase(THINK_MS));
  await Promise.all(clients.map((client) => submit(client, [])));
  const warm = await withCpu(burst);
  const warmBurst = warm.claims;
  socketsProcess?.stdin.end();
  for (const client of clients) client.close();
  if (process.env.BENCH_SERVER_OUT) (await import('node:fs')).writeFileSync(process.env.BENCH_SERVER_OUT, server.output());
  await stopProcess(server.child, 'SIGTERM');
  child = null;

  const db2 = openAndMigrate(dbPath);
  const floor: number[] = [];
  for (let i = 0; i < 500; i++) {
    const start = performance.now();
    findClaimable(db2, { status: 'pending', reviewerId: 1, now: nowIso(), k: 1, filters: { mismatch_first: false }, mismatchOnly: false, exclude: [] });
    floor.push(performance.now() - start);
  }
  // The whole claim statement (assigned, queues, gold, general queue in one COALESCE), as the server runs it.
  const claimStatement: number[] = [];
  for (let i = 0; i < 500; i++) {
    const start = performance.now();
    findNextClaim(db2, { reviewerId: 1, now: nowIso(), k: 1, filters: { mismatch_first: false }, exclude: [], gold: 'off' });
    claimStatement.push(performance.now() - start);
  }
  // The queue bar's count, which every reviewer's page fetches on each queue change (4 s per fetch at 100,000 items before it was made from the small sides).
  const queueCount: number[] = [];
  for (let i = 0; i < 100; i++) {
    const start = performance.now();
    availableFor(db2, 1, nowIso(), 1);
    queueCount.push(performance.now() - start);
  }
  db2.close();
  const pct = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
  };
  const floorP50 = pct(floor, 50);
  const ms = (v: number) => `${v.toFixed(2).padStart(7)} ms`;
  const perRequest = (v: number, cpu: Cpu) => (v / cpu.requests).toFixed(2);
  const cpuLine = (cpu: Cpu) =>
    `  CPU per request: server ${perRequest(cpu.server, cpu)} ms, timing client ${perRequest(cpu.client, cpu)} ms, sockets ${perRequest(cpu.sockets, cpu)} ms; ` +
    `${(cpu.events / cpu.requests).toFixed(0)} socket events received per request\n` +
    `  server main thread: ran ${cpu.mainRun.toFixed(0)} ms, waited ${cpu.mainWait.toFixed(0)} ms for a CPU (${((100 * cpu.mainWait) / (cpu.mainRun + cpu.mainWait)).toFixed(0)}% of its runnable time); ` +
    `host steal ${(100 * cpu.stealShare).toFixed(1)}% of the machine's CPU time`;
  const line = (name: string, v: number[]) =>
    `${name.padEnd(30)} p50 ${ms(pct(v, 50))}  p95 ${ms(pct(v, 95))}  p99 ${ms(pct(v, 99))}  p50/floor ${(pct(v, 50) / floorP50).toFixed(0).padStart(4)}×  (n=${v.length})`;
  console.log(
    `${ITEMS} items, ${BURST} reviewers signed in (${SOCKETS ? 'each with a socket' : 'no sockets'}), ${REVIEWERS} in the loops, ${ROUNDS} claims + submits each per phase; server log level ${LOG_LEVEL}`,
  );
  console.log(`load average before ${loadBefore}, after ${load()}`);
  console.log(`first burst (${BURST} reviewers claim at once on a server just started):`);
  console.log(line('  POST /api/review/next', firstBurst));
  console.log(cpuLine(first.cpu));
  console.log(
    `warm-up before the phases below: a paced round, then ${warmUpCpu.length} saturated rounds of ${REVIEWERS * ROUNDS * 2} requests; ` +
      `server CPU per request ${warmUpCpu.map((v) => v.toFixed(2)).join(' -> ')} ms`,
  );
  console.log(`saturated (no pause: ${REVIEWERS} requests always in flight on one server thread):`);
  console.log(line('  POST /api/review/next', saturated.claims));
  console.log(line('  POST /api/review/items/:id', saturated.submits));
  console.log(cpuLine(saturated.cpu));
  console.log(`paced (mean ${THINK_MS} ms between items per reviewer):`);
  console.log(line('  POST /api/review/next', paced.claims));
  console.log(line('  POST /api/review/items/:id', paced.submits));
  console.log(cpuLine(paced.cpu));
  console.log(`warm burst (${BURST} reviewers claim at once again):`);
  console.log(line('  POST /api/review/next', warmBurst));
  console.log(cpuLine(warm.cpu));
  console.log(line('bare claim SELECT (floor)', floor));
  console.log(line('whole claim SELECT', claimStatement));
  console.log(line('queue count (N for you)', queueCount));
  const verdict = (v: number[], target: number) => `${pct(v, 99) < target ? 'met' : 'MISSED'}`;
  console.log(
    `targets p99: paced < ${TARGETS.paced} ms claim ${verdict(paced.claims, TARGETS.paced)}, submit ${verdict(paced.submits, TARGETS.paced)}; ` +
      `saturated < ${TARGETS.saturated} ms claim ${verdict(saturated.claims, TARGETS.saturated)}, submit ${verdict(saturated.submits, TARGETS.saturated)}; ` +
      `first burst < ${TARGETS.burst} ms ${verdict(firstBurst, TARGETS.burst)}`,
  );
} finally {
  socketsProcess?.kill('SIGTERM');
  if (child) await stopProcess(child.child, 'SIGTERM');
  await setup.close();
  rmSync(dir, { recursive: true, force: true });
}
