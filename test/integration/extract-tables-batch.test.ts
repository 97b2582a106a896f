import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openAndMigrate, type Db } from '../../db/database';
import { getChartSummary } from '../../server/charts/chart-queries';
import { DomainEvents } from '../../server/events/event-bus';
import { importFolder } from '../../server/import/import-folder';
import { listLlmCalls } from '../../server/llm/llm-call-queries';
import { extractionCustomId } from '../../server/tables/extraction-batch-file';
import { getChartTable } from '../../server/tables/table-queries';
import { saveCuratorTable } from '../../server/tables/table-service';
import { chartIdsOfSplit } from '../support/factories';
import { runCli } from '../support/cli';
import { jsonReply, startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai';
import { MULTICHARTQA_DATA } from '../support/multichartqa-sample';

/** The real MultiChartQA sample: charts published as images only, no tables. */
const SPLIT = 'multichartqa';

/** What a model reads off a chart: a type, units, and one value estimated from the axis. */
const TABLE_REPLY = {
  orientation: 'none',
  stacking: 'none',
  chart_type: 'line',
  title: 'Daily cases',
  label_header: 'Year',
  series: [
    { name: 'Germany', unit: 'cases' },
    { name: 'France', unit: null },
  ],
  rows: [
    { label: '2020', values: [12.5, 3], printed: [true, false], total: null },
    { label: '2021', values: [20, null], printed: [true, false], total: null },
  ],
};

const dir = mkdtempSync(join(tmpdir(), 'hqa-extract-batch-'));
let fake: FakeOpenAI;
let db: Db;
let dbPath: string;

beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  db?.close();
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  db?.close();
  dbPath = join(dir, `${Math.random().toString(36).slice(2)}.sqlite`);
  db = openAndMigrate(dbPath);
  importFolder(db, MULTICHARTQA_DATA, { format: 'multichartqa', split: SPLIT });
  fake.requests.length = 0;
});

const chartIds = () => chartIdsOfSplit(db, SPLIT);
const customIdOf = (id: number) => {
  const chart = getChartSummary(db, id);
  if (!chart) throw new Error(`no chart ${id}`);
  return extractionCustomId(chart);
};

/** A result line as vLLM's run_batch.py writes one. */
const replyLine = (customId: string, content: string) => ({
  id: `vllm-${customId}`,
  custom_id: customId,
  response: {
    status_code: 200,
    request_id: `vllm-batch-${customId}`,
    body: { id: `chatcmpl-${customId}`, object: 'chat.completion', model: 'gpt-4o', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { prompt_tokens: 900, completion_tokens: 80 } },
  },
  error: null,
});

/** An OpenAI error-file line: the request never ran. */
const errorLine = (customId: string) => ({ id: `batch_req_${customId}`, custom_id: customId, response: null, error: { code: 'batch_expired', message: 'This request could not be executed before the completion window expired.' } });

function writeReplies(lines: unknown[]): string {
  const file = join(dir, `replies-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  return file;
}

/** The CLI owns the database while it runs; the test's handle is reopened after. */
async function cli(args: string[], env: Record<string, string> = {}) {
  db.close();
  try {
    return await runCli(args, { dbPath, env });
  } finally {
    db = openAndMigrate(dbPath);
  }
}

describe('hqa extract-tables --batch-out', () => {
  it('writes one line per chart to extract whose body is exactly the request the live path sends, and stores nothing', async () => {
    const [first] = chartIds() as [number];
    fake.setDefault(() => jsonReply(TABLE_REPLY));
    const live = await cli(['extract-tables', '--chart', String(first), '--json'], { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.url });
    expect(live.status).toBe(0);
    const sent = fake.requests.flatMap((r) => (r.chat ? [r.chat] : []));
    expect(sent).toHaveLength(1);

    const out = join(dir, 'requests.jsonl');
    // --force: the chart the live run just read is written again, unconfirmed as it is.
    const written = await cli(['extract-tables', '--split', SPLIT, '--force', '--batch-out', out]);
    expect(written.status).toBe(0);
    const ids = chartIds();
    expect(written.stdout).toContain(`wrote ${ids.length} extraction requests for gpt-4o to ${out}`);
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((text) => JSON.parse(text) as { custom_id: string; method: string; url: string; body: unknown });
    expect(lines.map((line) => line.custom_id)).toEqual(ids.map(customIdOf));
    expect(lines.every((line) => line.method === 'POST' && line.url === '/v1/chat/completions')).toBe(true);
    expect(lines[0]?.body).toEqual(sent[0]);
    // Writing stored nothing: the other charts still have no table, and no call was recorded.
    expect(getChartTable(db, ids[1] as number)?.data_table).toBeNull();
    expect(listLlmCalls(db)).toHaveLength(1);
  });
});

describe('hqa extract-tables --batch-in', () => {
  it('stores each reply as a live extraction would: extracted, unconfirmed, with the type, units and estimated cells, and an llm_calls row naming the chart', async () => {
    const ids = chartIds();
    const file = writeReplies(ids.map((id) => replyLine(customIdOf(id), JSON.stringify(TABLE_REPLY))));
    const read = await cli(['extract-tables', '--batch-in', file]);
    expect(read.stderr).toBe('');
    expect(read.status).toBe(0);
    expect(read.stdout).toContain(`${ids.length} of ${ids.length} replies in ${file} stored`);
    const table = getChartTable(db, ids[0] as number);
    expect(table).toMatchObject({ table_source: 'extracted', table_confirmed: false, title: 'Daily cases' });
    expect(table?.data_table).toMatchObject({
      series: ['Germany', 'France'],
      units: ['cases', null],
      rows: [
        { label: '2020', values: [12.5, 3], estimated: [false, true] },
        { label: '2021', values: [20, null] },
      ],
    });
    expect(getChartSummary(db, ids[0] as number)).toMatchObject({ chart_type: 'line', type_source: 'extracted' });
    const calls = listLlmCalls(db);
    expect(calls.map((call) => call.chart_id)).toEqual(ids);
    expect(calls.every((call) => call.purpose === 'extraction' && call.template === 'extract-table' && call.outcome === 'ok' && call.prompt_tokens === 900)).toBe(true);
  });

  it('names an error line and an invalid reply by custom_id, says batch mode has no repair turn, and stores the other lines', async () => {
    const [good, expired, invalid] = chartIds() as [number, number, number];
    const tooShort = { ...TABLE_REPLY, rows: [TABLE_REPLY.rows[0], { label: '2021', values: [20], printed: [true], total: null }] };
    const file = writeReplies([replyLine(customIdOf(good), JSON.stringify(TABLE_REPLY)), errorLine(customIdOf(expired)), replyLine(customIdOf(invalid), JSON.stringify(tooShort))]);
    const read = await cli(['extract-tables', '--batch-in', file]);
    expect(read.status).toBe(2);
    expect(read.stderr).toContain(`failed: ${customIdOf(expired)}: batch_expired: This request could not be executed`);
    expect(read.stderr).toMatch(new RegExp(`failed: ${customIdOf(invalid)}: schema-invalid: rows\\.1\\.values: 1 values for 2 series.*no repair turn`));
    expect(read.stdout).toContain('1 of 3 replies');
    expect(getChartTable(db, good)?.table_source).toBe('extracted');
    expect(getChartTable(db, expired)?.data_table).toBeNull();
    expect(getChartTable(db, invalid)?.data_table).toBeNull();
    expect(listLlmCalls(db).map((call) => [call.chart_id, call.outcome])).toEqual([
      [good, 'ok'],
      [expired, 'error'],
      [invalid, 'invalid'],
    ]);
  });

  it('keeps a confirmed table, naming the chart, and refuses a custom_id of no chart here', async () => {
    const [confirmed, open] = chartIds() as [number, number];
    saveCuratorTable(db, new DomainEvents(db, console), confirmed, { title: null, label_header: 'Year', series: ['Cases'], rows: [{ label: '2020', cells: ['7'] }] }, null);
    const file = writeReplies([replyLine(customIdOf(confirmed), JSON.stringify(TABLE_REPLY)), replyLine(customIdOf(open), JSON.stringify(TABLE_REPLY)), replyLine('chart-9999-elsewhere', JSON.stringify(TABLE_REPLY))]);
    const read = await cli(['extract-tables', '--batch-in', file]);
    expect(read.status).toBe(2);
    expect(read.stderr).toContain(`failed: ${customIdOf(confirmed)}: chart ${confirmed}: its confirmed table is kept`);
    expect(read.stderr).toContain('failed: chart-9999-elsewhere: names no chart of this database');
    expect(getChartTable(db, confirmed)).toMatchObject({ table_source: 'curator', table_confirmed: true, data_table: { series: ['Cases'] } });
    expect(getChartTable(db, open)?.table_source).toBe('extracted');
  });

  it('refuses --split, --chart and --force with --batch-in: the file names its charts', async () => {
    const file = writeReplies([replyLine(customIdOf(chartIds()[0] as number), JSON.stringify(TABLE_REPLY))]);
    const read = await cli(['extract-tables', '--split', SPLIT, '--batch-in', file]);
    expect(read.status).toBe(1);
    expect(read.stderr).toBe('error: --batch-in stores the charts its file names; --split, --chart and --force choose what --batch-out writes\n');
    expect(listLlmCalls(db)).toHaveLength(0);
  });
});
