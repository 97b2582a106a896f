// Run by test/integration/object-shapes.test.ts as
//   node --allow-natives-syntax --import tsx test/support/object-shapes-probe.mjs <dir>
// Plain JavaScript, and V8's %HaveSameMap made at run time: it is syntax that only V8 with that
// flag reads (not TypeScript, not the linter). Starts
// the server on a database in <dir> (the demo split), then asks V8 whether objects the review hot
// path makes again and again share one shape (a "map"): where each gets a shape of its own, those
// shapes outlive the objects and the young-generation collections promote megabytes
// (bench/review.ts). Prints one JSON object of named booleans.
import { join } from 'node:path';
import process from 'node:process';
import { pino } from 'pino';

const { loadConfig } = await import('../../server/config.ts');
const { startServer } = await import('../../server/start-server.ts');
const { getItemWithChart } = await import('../../server/items/item-queries.ts');

const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b);');
const dir = process.argv[2];
const server = await startServer({ ...loadConfig({}), dbPath: join(dir, 'probe.sqlite'), port: 0, logLevel: 'silent', warmUp: false }, pino({ level: 'silent' }));
const found = {};
try {
  const { db } = server.ctx;

  // Objects built from {} under a new name: once V8's list of shapes growing out of {} is full
  // (a library loaded into this realm can fill it), each gets a shape of its own.
  const fromEmpty = () => {
    const o = {};
    o.probe_name_no_library_uses = 1;
    return o;
  };
  found.objectsFromEmptyShareAShape = haveSameMap(fromEmpty(), fromEmpty());

  // better-sqlite3 answers every write with { changes, lastInsertRowid } built that way.
  db.exec('CREATE TEMP TABLE probe (v INTEGER)');
  const insert = db.prepare('INSERT INTO probe (v) VALUES (?)');
  found.writeResultsShareAShape = haveSameMap(insert.run(1), insert.run(2));

  // A review task's item, read twice (two items over the demo's first question).
  const qa = db.prepare('SELECT id, chart_id FROM factual_qas ORDER BY id LIMIT 1').get();
  const verifier = JSON.stringify({ recomputed_answer: '1', answer_type: 'integer', match: true, lint: [], error: null });
  const addItem = db.prepare(`INSERT INTO hqa_items (qa_id, chart_id, origin, assumption, question, answer, answer_type, rationale, affects_answer, program, verifier, verifier_match, question_relation)
    VALUES (?, ?, 'human', 'Suppose x.', 'Suppose x. What is y?', '1', 'integer', 'r', 1, '1', ?, 1, 'different')`);
  const first = Number(addItem.run(qa.id, qa.chart_id, verifier).lastInsertRowid);
  const second = Number(addItem.run(qa.id, qa.chart_id, verifier).lastInsertRowid);
  // Read often enough for V8 to optimise the read, as a busy server does: the shape can differ then.
  for (let i = 0; i < 5_000; i++) getItemWithChart(db, i % 2 === 0 ? first : second);
  found.itemDetailsShareAShape = haveSameMap(getItemWithChart(db, first).item, getItemWithChart(db, second).item);

  // Requests and responses once express has handled them (prototypes, params, route, status ...).
  const seen = [];
  server.realtime.io.httpServer.on('request', (req, res) => seen.push({ req, res }));
  for (let i = 0; i < 300; i++) for (const path of ['/api/health', '/api/auth/me']) await (await globalThis.fetch(`${server.url}${path}`)).arrayBuffer();
  const [health1, me1, health2, me2] = seen.slice(-4);
  found.requestsShareAShape = haveSameMap(health1.req, health2.req) && haveSameMap(me1.req, me2.req);
  found.responsesShareAShape = haveSameMap(health1.res, health2.res) && haveSameMap(me1.res, me2.res);
} finally {
  await server.close();
}
process.stdout.write(`${JSON.stringify(found)}\n`);
