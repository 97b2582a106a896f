import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * What the `hqa score` tests feed the CLI: a Chart-HQA export (`hqa export`'s JSON) built from a
 * few items, and files written to a folder of the test file's own, removed after its tests.
 */

/** A folder for the calling test file's inputs (removed after its tests) and a writer into it: JSON, or text as given. */
export function scoreScratch(prefix: string): { dir: string; write: (name: string, value: unknown) => string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, value: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
    return path;
  };
  return { dir, write };
}

/** One exported item; the original question's label is the answer before the assumption. */
export function buildExportItem(id: string, answer: string, answer_type: string, label = answer, affects_answer = true, question_relation = 'same') {
  return {
    id,
    imgname: `${id}.png`,
    chart_type: 'vertical_bar',
    assumption: 'If every value doubled,',
    question: `If every value doubled, what is the value for ${id}?`,
    answer,
    answer_type,
    affects_answer,
    question_relation,
    control: !affects_answer,
    original: { query: `What is the value for ${id}?`, label, source: 'human' },
    proposal: { id: 1, text: 'scale a series' },
    review: { reviews: 1, accepts: 1, rejects: 0, adjudicated: false, corrected: false },
  };
}

type ExportItem = ReturnType<typeof buildExportItem>;

/** The export holding `items`, its stats counted from them (one chart an item, one proposal). */
export function buildExport(items: readonly ExportItem[]) {
  const answer_types: Record<string, number> = {};
  for (const item of items) answer_types[item.answer_type] = (answer_types[item.answer_type] ?? 0) + 1;
  return {
    name: 'chart-hqa',
    version: '1',
    created_at: '2025-01-01T00:00:00.000Z',
    stats: {
      questions: items.length,
      proposals: 1,
      charts: items.length,
      answer_types,
      avg_chars: { question: 50, assumption: 23, answer: 3 },
      pass_rate: 100,
      same_question: items.filter((item) => item.question_relation === 'same').length,
      controls: items.filter((item) => item.control).length,
    },
    items,
  };
}

/** A score report's figures by their `key`, as a program reading `hqa score --json` would. */
export function figuresByKey(report: { figures: readonly { key?: string | undefined; value: number | null }[] }): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const figure of report.figures) if (figure.key !== undefined) out[figure.key] = figure.value;
  return out;
}
