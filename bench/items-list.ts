import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openAndMigrate } from '../db/database';
import { ItemListQuerySchema, type ItemListQuery, type ItemSort } from '../shared/api/items';
import { importSplit } from '../server/import/import-split';
import { listItemsPage } from '../server/items/item-list-queries';

/**
 * Items list benchmark: N items (default 100,000) over the ChartQA sample's charts, then the
 * time of the first page against a page 90 % of the way down, under LIMIT/OFFSET (`page`, as
 * the whole list paged before keyset paging, and as short scoped lists still do) and under a
 * cursor, for each sort and with a full-text search. The deep/first ratio is the figure: near 1
 * means a deep page costs what the first does. (The list before, which also joined charts for
 * every count: first 11.6 ms, deep 37.8 ms at 100,000 items.)
 *   npm run bench:items-list -- [items]
 */
const CHARTQA_SAMPLE = resolve(process.cwd(), '../shared/data/chartqa-sample');
const PAGE_SIZE = 25;
const RUNS = 30;
const STATUSES = ['pending', 'in_review', 'accepted', 'rejected', 'needs_adjudication'];
const WORDS = ['revenue', 'share', 'population', 'sales', 'growth', 'Germany', 'China', 'average', 'total', 'highest'];

const items = Number(process.argv[2] ?? 100_000);
const dir = mkdtempSync(join(tmpdir(), 'hqa-bench-items-list-'));
const db = openAndMigrate(join(dir, 'bench.sqlite'));

/** Median milliseconds of `RUNS` calls. */
function median(run: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(RUNS / 2)] ?? 0;
}

try {
  importSplit(db, CHARTQA_SAMPLE);
  const qas = db.prepare('SELECT id, chart_id FROM factual_qas').all() as { id: number; chart_id: number }[];
  // Raw rows, not the item service: verifying 100,000 items would time the verifier, not the list.
  const insert = db.prepare(`INSERT INTO hqa_items (qa_id, chart_id, origin, assumption, question, answer, answer_type, rationale, affects_answer, program, verifier, status)
    VALUES (?, ?, 'human', ?, ?, '1', 'integer', 'r', 1, '1', '{"lint":[]}', ?)`);
  db.transaction(() => {
    for (let i = 0; i < items; i++) {
      const qa = qas[i % qas.length];
      if (!qa) throw new Error('the sample has no QAs');
      const word = WORDS[i % WORDS.length] ?? 'total';
      insert.run(qa.id, qa.chart_id, `Suppose the ${word} rose by ${i % 97}.`, `What would the ${word} of item ${i} be?`, STATUSES[i % STATUSES.length]);
    }
  })();
  const deepPage = Math.floor((items * 0.9) / PAGE_SIZE);
  const query = (extra: Partial<ItemListQuery>): ItemListQuery => ItemListQuerySchema.parse({ page_size: PAGE_SIZE, ...extra });
  console.log(`${items} items, page size ${PAGE_SIZE}, deep page = page ${deepPage}; median of ${RUNS} calls`);

  const offsetFirst = median(() => listItemsPage(db, query({ page: 1 })));
  const offsetDeep = median(() => listItemsPage(db, query({ page: deepPage })));
  console.log(`LIMIT/OFFSET, newest: first ${offsetFirst.toFixed(2)} ms, deep ${offsetDeep.toFixed(2)} ms, ratio ${(offsetDeep / offsetFirst).toFixed(1)}`);

  const cases: { label: string; sort: ItemSort; extra: Partial<ItemListQuery> }[] = [
    { label: 'newest', sort: 'newest', extra: {} },
    { label: 'oldest', sort: 'oldest', extra: {} },
    { label: 'status', sort: 'status', extra: {} },
    { label: 'chart', sort: 'chart', extra: {} },
    { label: 'status=accepted', sort: 'newest', extra: { status: 'accepted' } },
    { label: 'q=revenue', sort: 'newest', extra: { q: 'revenue' } },
    // Flags read from JSON columns (every row's verifier or bias flags): a scan, paged by cursor all the same.
    { label: 'lint=none', sort: 'newest', extra: { lint: 'none' } },
    { label: 'bias=none', sort: 'newest', extra: { bias: 'none' } },
  ];
  for (const { label, sort, extra } of cases) {
    const total = listItemsPage(db, query({ sort, ...extra })).total;
    const depth = Math.max(1, Math.floor((total * 0.9) / PAGE_SIZE));
    // The cursor a reader paging that far would hold: the row before the deep page's first.
    const cursor = listItemsPage(db, query({ sort, ...extra, page: depth })).next_cursor ?? undefined;
    const first = median(() => listItemsPage(db, query({ sort, ...extra })));
    const deep = median(() => listItemsPage(db, query({ sort, ...extra, cursor })));
    console.log(`keyset, ${label}: ${total} rows, first ${first.toFixed(2)} ms, page ${depth + 1} ${deep.toFixed(2)} ms, ratio ${(deep / first).toFixed(1)}`);
  }
} finally {
  db.close();
  rmSync(dir, { recursive: true, force: true });
}
