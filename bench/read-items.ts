import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { openAndMigrate } from '../db/database';
import { RunConfigSchema } from '../shared/api/runs';
import type { AppContext } from '../server/app-context';
import { DomainEvents } from '../server/events/event-bus';
import { loadConfig } from '../server/config';
import { createOfflineEngine } from '../server/generation/offline-engine';
import { closeThreadPools } from '../server/jobs/thread-pool';
import { RunExecutor } from '../server/generation/run-executor';
import { importSplit } from '../server/import/import-split';
import { ensureSeedProposals } from '../server/pool/pool-service';
import { putSettings } from '../server/settings/settings-queries';

/**
 * Items to read as a strict reviewer would: a default offline run (Stage 1, then Stage 2 over
 * every factual QA) on a ChartQA-layout split, written as Markdown with each item's original
 * CSV, factual QA, proposal, assumption, answer, program, edit and lint, then every QA that got
 * no item with its reason. Reading them against the CSVs (and PNGs) is how generation is judged.
 *   npm run bench:read-items -- [--split DIR] [--out FILE] [--batches N] [--keep-errors]
 */

const { values } = parseArgs({
  options: {
    split: { type: 'string', default: resolve(import.meta.dirname, '../../shared/data/chartqa-sample') },
    out: { type: 'string', default: 'items-to-read.md' },
    batches: { type: 'string', default: '2' },
    'keep-errors': { type: 'boolean', default: false },
  },
});

interface ItemRow {
  id: number;
  imgname: string;
  chart_type: string;
  type_source: string;
  title: string | null;
  source_file: string;
  query: string;
  label: string;
  qa_source: string;
  proposal: string | null;
  assumption: string;
  question: string;
  answer: string;
  program: string;
  edit: string | null;
  verifier: string;
  bias_flags: string;
}

const dir = mkdtempSync(join(tmpdir(), 'hqa-read-items-'));
try {
  const db = openAndMigrate(join(dir, 'read.sqlite'));
  importSplit(db, values.split);
  ensureSeedProposals(db);
  // Items the checks call errors are kept, with their findings, to read what the checks flag.
  if (values['keep-errors']) putSettings(db, { keep_items_with_errors: true });
  const ctx: AppContext = { db, config: loadConfig({}), logger: pino({ level: 'silent' }), events: new DomainEvents(db, pino({ level: 'silent' })), publish: () => undefined, publishTo: () => undefined, disconnectSockets: () => undefined };
  const executor = new RunExecutor(ctx, () => createOfflineEngine());
  const qas = (db.prepare('SELECT COUNT(*) AS n FROM factual_qas').get() as { n: number }).n;
  const run = executor.createRun(RunConfigSchema.parse({ engine: 'offline', stage: 'both', items: qas, proposal_batches: Number(values.batches), concurrency: 4 }), null);
  await executor.start(run.id);
  const items = db
    .prepare(
      `SELECT i.id, c.imgname, c.chart_type, c.type_source, c.title, c.source_file, q.query, q.label, q.source AS qa_source, p.text AS proposal,
              i.assumption, i.question, i.answer, i.program, i.edit, i.verifier, i.bias_flags
       FROM hqa_items i JOIN factual_qas q ON q.id = i.qa_id JOIN charts c ON c.id = i.chart_id LEFT JOIN proposals p ON p.id = i.proposal_id
       ORDER BY c.imgname, i.id`,
    )
    .all() as ItemRow[];
  const failed = db
    .prepare(
      // Failed tasks, and declined ones (the rules found no item: done, with a decline reason).
      `SELECT c.imgname, q.query, q.label, coalesce(t.error, t.decline_reason) AS error FROM run_tasks t JOIN factual_qas q ON q.id = t.qa_id JOIN charts c ON c.id = q.chart_id
       WHERE t.run_id = ? AND t.kind = 'item' AND (t.status = 'failed' OR t.decline_reason IS NOT NULL) ORDER BY c.imgname`,
    )
    .all(run.id) as { imgname: string; query: string; label: string; error: string }[];
  const lines: string[] = [`# ${items.length} items over ${qas} factual QAs (${values.split})`, ''];
  for (const item of items) {
    const verifier = JSON.parse(item.verifier) as { lint?: { code: string; severity: string }[]; original_answer?: string | null; match?: boolean };
    const csv = (() => {
      try {
        return readFileSync(join(values.split, 'tables', `${item.imgname.replace(/\.png$/, '')}.csv`), 'utf8').replace(/\r/g, '').trimEnd();
      } catch {
        return '(no CSV)';
      }
    })();
    lines.push(
      `## item ${item.id} — ${item.imgname} (${item.chart_type}, ${item.type_source})`,
      `title: ${item.title ?? ''}`,
      '```csv',
      csv,
      '```',
      `- factual (${item.qa_source}): ${item.query} → **${item.label}**`,
      `- proposal: ${item.proposal ?? '(none)'}`,
      `- question: ${item.question}`,
      `- answer: **${item.answer}** (original by program: ${verifier.original_answer ?? '?'})`,
      `- program: \`${item.program}\``,
      `- edit: \`${item.edit ?? ''}\``,
      `- lint: ${(verifier.lint ?? []).map((f) => `${f.severity}:${f.code}`).join(', ') || 'none'}; bias: ${item.bias_flags}`,
      '',
    );
  }
  lines.push(`# ${failed.length} QAs without an item`, '');
  for (const f of failed) lines.push(`- ${f.imgname}: ${f.query} → ${f.label}: ${f.error.slice(0, 200)}`);
  writeFileSync(values.out, `${lines.join('\n')}\n`);
  console.log(`${items.length} items from ${qas} factual QAs (${new Set(items.map((i) => `${i.imgname}|${i.query}`)).size} QAs with an item); ${failed.length} failed or declined; written to ${values.out}`);
  db.close();
} finally {
  await closeThreadPools();
  rmSync(dir, { recursive: true, force: true });
}
