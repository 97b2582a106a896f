import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { NextResponseSchema } from '../shared/api/review';
import { loadConfig } from '../server/config';
import { findClaimable, nowIso } from '../server/review/review-queries';
import { startServer } from '../server/start-server';
import { createUser } from '../server/users/user-service';
import { acceptReview } from '../test/support/review-fixtures';
import { startServerProcess, stopProcess, type ServerProcess } from '../test/support/server-process';
import { openAndMigrate } from '../db/database';
import { TestClient } from '../test/support/http-client';

/**
 * Review benchmark: N items (default 100,000) in the database, R reviewers (default 20) each
 * claiming and submitting in a loop over HTTP. Prints p50/p99 of the claim and the submit
 * requests next to the bare SQLite claim statement (the floor). Target: p99 < 20 ms.
 *   npm run bench:review -- [items] [reviewers] [rounds]
 */
const ITEMS = Number(process.argv[2] ?? 100_000);
const REVIEWERS = Number(process.argv[3] ?? 20);
const ROUNDS = Number(process.argv[4] ?? 25);
/** Pause between a reviewer's submit and their next claim in the paced phase: a person takes ~20 s per item; this is ~80× faster. */
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 250);

const dir = mkdtempSync(join(tmpdir(), 'hqa-bench-review-'));
const dbPath = join(dir, 'bench.sqlite');
// Prepare the database in this process (first start imports the demo split), then run the
// server in a process of its own, as in production, so the clients' work is not on its thread.
const setup = await startServer({ ...loadConfig({}), dbPath, port: 0, logLevel: 'silent' }, pino({ level: 'silent' }));
let child: ServerProcess | null = null;
try {
  const { db } = setup.ctx;
  // Items are copies of one template row over the demo charts' questions: the queue only
  // cares about status, ids and leases.
  const qa = db.prepare('SELECT q.id, q.chart_id FROM factual_qas q LIMIT 1').get() as { id: number; chart_id: number };
  const insert = db.prepare(`INSERT INTO hqa_items (qa_id, chart_id, origin, assumption, question, answer, answer_type, rationale, affects_answer, edit, program, verifier, verifier_match)
    VALUES (?, ?, 'human', 'Suppose x.', 'Suppose x. What is y?', '1', 'integer', 'r', 1, NULL, '1', ?, 1)`);
  const verifier = JSON.stringify({ recomputed_answer: '1', answer_type: 'integer', match: true, lint: [], error: null });
  db.transaction(() => {
    for (let i = 0; i < ITEMS; i++) insert.run(qa.id, qa.chart_id, verifier);
  })();

  for (let i = 0; i < REVIEWERS; i++) await createUser(db, `bench${i}`, 'reviewer', `bench-pass-${i}`);
  await setup.close();
  child = await startServerProcess({ HQA_DB: dbPath, HQA_LOG_LEVEL: 'silent' });
  const clients: TestClient[] = [];
  for (let i = 0; i < REVIEWERS; i++) {
    const client = new TestClient(child.url);
    await client.login(`bench${i}`, `bench-pass-${i}`);
    clients.push(client);
  }
  /** Every reviewer claims and submits in a loop, `thinkMs` between items. */
  async function phase(thinkMs: number): Promise<{ claims: number[]; submits: number[] }> {
    const claims: number[] = [];
    const submits: number[] = [];
    await Promise.all(
      clients.map(async (client) => {
        for (let round = 0; round < ROUNDS; round++) {
          let start = performance.now();
          const res = await client.post('/api/review/next', {});
          claims.push(performance.now() - start);
          const task = NextResponseSchema.parse(res.body).task;
          if (!task) return;
          start = performance.now();
          await client.post(`/api/review/items/${task.item.id}`, acceptReview());
          submits.push(performance.now() - start);
          if (thinkMs > 0) await new Promise((r) => setTimeout(r, Math.random() * 2 * thinkMs));
        }
      }),
    );
    return { claims, submits };
  }
  await phase(THINK_MS); // warm-up: JIT, caches
  const saturated = await phase(0);
  const paced = await phase(THINK_MS);
  await stopProcess(child.child, 'SIGTERM');
  child = null;
  const db2 = openAndMigrate(dbPath);
  const floor: number[] = [];
  for (let i = 0; i < 500; i++) {
    const start = performance.now();
    findClaimable(db2, { status: 'pending', reviewerId: 1, now: nowIso(), k: 1, filters: { mismatch_first: false }, mismatchOnly: false, exclude: [] });
    floor.push(performance.now() - start);
  }
  const pct = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
  };
  const line = (name: string, v: number[]) => `${name.padEnd(28)} p50 ${pct(v, 50).toFixed(2)} ms   p99 ${pct(v, 99).toFixed(2)} ms   (n=${v.length})`;
  console.log(`${ITEMS} items, ${REVIEWERS} concurrent reviewers, ${ROUNDS} claims + submits each per phase`);
  console.log(`paced (mean ${THINK_MS} ms between items per reviewer):`);
  console.log(line('  POST /api/review/next', paced.claims));
  console.log(line('  POST /api/review/items/:id', paced.submits));
  console.log('saturated (no pause: 20 requests always in flight on one server thread):');
  console.log(line('  POST /api/review/next', saturated.claims));
  console.log(line('  POST /api/review/items/:id', saturated.submits));
  console.log(line('bare claim SELECT (floor)', floor));
  const verdict = (v: number[]) => (pct(v, 99) < 20 ? 'met' : 'MISSED');
  console.log(`target p99 < 20 ms (paced): claim ${verdict(paced.claims)}, submit ${verdict(paced.submits)}`);
  db2.close();
} finally {
  if (child) await stopProcess(child.child, 'SIGTERM');
  await setup.close();
  rmSync(dir, { recursive: true, force: true });
}
