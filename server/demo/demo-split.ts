import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { demoCharts } from './demo-charts';

/*
 * The workbench's own demo data: splits in ChartQA's layout, generated from code, so a new
 * install shows a working workbench without shipping ChartQA (GPL-3.0) and the import
 * benchmark can make splits of any size. Companies, countries, towns and films are fictional,
 * every number is made up (temperatures follow each real city's rough climate), and a seed
 * always gives the same bytes.
 */

export interface DemoSplitOptions {
  dir: string;
  split?: string;
  charts?: number;
  seed?: number;
}

export interface DemoSplitResult {
  charts: number;
  qas: number;
  dir: string;
}

const SPLIT_NAME = /^[A-Za-z0-9][\w.-]*$/;

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** CSV text as ChartQA writes it: CRLF after every line, including the last. */
export function tableCsv(header: readonly string[], body: readonly (readonly string[])[]): string {
  let text = header.map(csvField).join(',') + '\r\n';
  for (const row of body) text += row.map(csvField).join(',') + '\r\n';
  return text;
}

/**
 * Writes a demo split in ChartQA's layout: `tables/<stem>.csv`, `annotations/<stem>.json` for
 * most charts, `<split>_human.json` and `<split>_augmented.json`; no `png/` (the server
 * renders charts from their tables). Files of the same name are overwritten; nothing else in
 * `dir` is touched. Same options → same bytes.
 */
export function generateDemoSplit({ dir, split = 'demo', charts = 60, seed = 1 }: DemoSplitOptions): DemoSplitResult {
  if (!Number.isInteger(charts) || charts < 1) throw new RangeError(`charts must be a positive integer, not ${charts}`);
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, not ${seed}`);
  if (!SPLIT_NAME.test(split)) throw new RangeError(`split "${split}" must be letters, digits, ".", "_" or "-"`);
  const tablesDir = join(dir, 'tables');
  const annotationsDir = join(dir, 'annotations');
  mkdirSync(tablesDir, { recursive: true });
  mkdirSync(annotationsDir, { recursive: true });
  const human: { imgname: string; query: string; label: string }[] = [];
  const augmented: typeof human = [];
  let written = 0;
  for (const chart of demoCharts({ charts, seed })) {
    written++;
    writeFileSync(join(tablesDir, `${chart.stem}.csv`), tableCsv(chart.header, chart.body));
    if (chart.annotation) writeFileSync(join(annotationsDir, `${chart.stem}.json`), JSON.stringify(chart.annotation));
    for (const q of chart.questions) {
      (q.source === 'human' ? human : augmented).push({ imgname: `${chart.stem}.png`, query: q.query, label: q.label });
    }
  }
  // As in ChartQA: the human file on one line, the augmented file tab-indented.
  writeFileSync(join(dir, `${split}_human.json`), JSON.stringify(human));
  writeFileSync(join(dir, `${split}_augmented.json`), JSON.stringify(augmented, null, '\t'));
  return { charts: written, qas: human.length + augmented.length, dir };
}
