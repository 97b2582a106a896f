import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { openAndMigrate, type Db } from '../db/database';
import { ChartTypeSchema } from '../shared/domain/chart-types';
import type { DataTable } from '../shared/table/model';
import { getChartSummary } from '../server/charts/chart-queries';
import { parseTableCsv } from '../server/import/csv-table';
import { importSplit } from '../server/import/import-split';
import { toJsonl } from '../server/llm/batch-lines';
import { getSettings, putSettings } from '../server/settings/settings-queries';
import { extractionBatchLines, readExtractionReplies } from '../server/tables/extraction-batch-file';
import { getChartTable } from '../server/tables/table-queries';

/**
 * How close a vision model's extracted tables come to the true ones, on the 20 charts of
 * ../shared/data/chartqa-extra (ChartQA layout), through the batch-file path of
 * `hqa extract-tables` (server/tables/extraction-batch-file.ts):
 *   npx tsx bench/extraction-fidelity.ts requests OUT.jsonl [--model NAME]
 *   npx tsx bench/extraction-fidelity.ts score REPLIES.jsonl [--types bench/data/chartqa-extra-types.json]
 * Each mode imports the split's PNGs and questions, without its tables, into a temporary
 * database (the same import both times, so chart ids and custom_ids agree); `requests` writes
 * the `--batch-out` lines, `score` stores the replies as `--batch-in` does, then compares each
 * stored table with tables/<stem>.csv. Nothing of the dataset is copied into the repository.
 */

const SPLIT_NAME = 'chartqa-extra';
/** A value within this share of the true one (relative) counts as right. */
const VALUE_TOLERANCE = 0.02;

const { positionals, values: flags } = parseArgs({
  allowPositionals: true,
  options: {
    split: { type: 'string', default: resolve(import.meta.dirname, '../../shared/data/chartqa-extra') },
    types: { type: 'string' },
    model: { type: 'string' },
  },
});
const [mode, file] = positionals;
if ((mode !== 'requests' && mode !== 'score') || file === undefined) {
  process.stderr.write('usage: npx tsx bench/extraction-fidelity.ts requests OUT.jsonl [--model NAME] | score REPLIES.jsonl [--types TYPES.json]\n');
  process.exit(1);
}
const splitDir = flags.split;

/** The true type per stem: a type, or a type with the bars' orientation and stacking. */
const TypesSchema = z.record(z.string(), z.union([ChartTypeSchema, z.object({ chart_type: ChartTypeSchema }).loose()]));

/** The split's images and questions, without tables/, imported into a database in a temporary folder. */
function importImagesOnly(work: string): Db {
  const dir = join(work, SPLIT_NAME);
  mkdirSync(dir);
  cpSync(join(splitDir, 'png'), join(dir, 'png'), { recursive: true });
  copyFileSync(join(splitDir, 'train_augmented.json'), join(dir, 'train_augmented.json'));
  const db = openAndMigrate(join(work, 'bench.sqlite'));
  const report = importSplit(db, dir, { split: SPLIT_NAME });
  if (report.errors.length > 0) throw new Error(`import: ${JSON.stringify(report.errors.slice(0, 3))}`);
  if (flags.model) putSettings(db, { extraction_model: flags.model });
  return db;
}

const chartsOfSplit = (db: Db) => (db.prepare('SELECT id FROM charts WHERE split = ? ORDER BY id').all(SPLIT_NAME) as { id: number }[]).map((row) => row.id);

const stemOf = (imgname: string) => imgname.replace(/\.[^.]+$/, '');
/** A series name without a unit in parentheses at its end: "Share (%)" → "share". */
const withoutUnit = (name: string) => name.replace(/\s*\([^()]*\)\s*$/, '').trim().toLowerCase();
/**
 * The ways a table glues a unit onto a series name (ChartQA's Statista tables: "Brand value in
 * million U.S. dollars", "Deaths per 1,000 live births", "Share (%)"): the extracted name with
 * its unit field put back each way.
 */
const withUnitGlued = (name: string, unit: string | null | undefined) => (unit ? [`${name} in ${unit}`, `${name} ${unit}`, `${name} (${unit})`] : [name]);

/** Labels compared loosely to pair cells: case, spacing and ChartQA's footnote stars aside. */
const looseLabel = (label: string) => label.replace(/\*+$/, '').replace(/\s+/g, ' ').trim().toLowerCase();

interface ChartScore {
  stem: string;
  stored: boolean;
  type: string;
  typeRight: boolean | null;
  rows: number;
  rowsTrue: number;
  rowSetRight: boolean;
  labelsExact: number;
  series: number;
  seriesExact: number;
  seriesWithoutUnit: number;
  /** True names matched by an extracted name with its unit put back as the table glues it. */
  seriesWithUnit: number;
  cells: number;
  cellsWithin: number;
  units: number;
  estimated: number;
}

/** The extracted series matching a true one: same name, else same name without its unit, else the same position in a table of as many series. */
function seriesIndex(truth: DataTable, extracted: DataTable, index: number): number {
  const name = truth.series[index] as string;
  const exact = extracted.series.indexOf(name);
  if (exact >= 0) return exact;
  const loose = extracted.series.findIndex((s) => withoutUnit(s) === withoutUnit(name));
  if (loose >= 0) return loose;
  return extracted.series.length === truth.series.length ? index : -1;
}

function rowIndex(truth: DataTable, extracted: DataTable, index: number): number {
  const label = truth.rows[index]?.label as string;
  const exact = extracted.rows.findIndex((row) => row.label === label);
  return exact >= 0 ? exact : extracted.rows.findIndex((row) => looseLabel(row.label) === looseLabel(label));
}

const within = (value: number | null | undefined, truth: number) => typeof value === 'number' && (truth === 0 ? value === 0 : Math.abs(value - truth) <= VALUE_TOLERANCE * Math.abs(truth));

function scoreChart(stem: string, type: string, trueType: string | null, truth: DataTable, extracted: DataTable | null): ChartScore {
  const cells = truth.rows.reduce((sum, row) => sum + row.values.filter((v) => v !== null).length, 0);
  const base = { stem, type, typeRight: trueType === null ? null : type === trueType, rowsTrue: truth.rows.length, series: truth.series.length, cells };
  if (!extracted) return { ...base, stored: false, rows: 0, rowSetRight: false, labelsExact: 0, seriesExact: 0, seriesWithoutUnit: 0, seriesWithUnit: 0, cellsWithin: 0, units: 0, estimated: 0 };
  const labels = new Set(extracted.rows.map((row) => row.label));
  const trueLabels = new Set(truth.rows.map((row) => row.label));
  let cellsWithin = 0;
  truth.rows.forEach((row, r) => {
    const er = rowIndex(truth, extracted, r);
    row.values.forEach((value, s) => {
      const es = seriesIndex(truth, extracted, s);
      if (value !== null && er >= 0 && es >= 0 && within(extracted.rows[er]?.values[es], value)) cellsWithin += 1;
    });
  });
  return {
    ...base,
    stored: true,
    rows: extracted.rows.length,
    rowSetRight: labels.size === trueLabels.size && [...trueLabels].every((label) => labels.has(label)),
    labelsExact: [...trueLabels].filter((label) => labels.has(label)).length,
    seriesExact: truth.series.filter((name) => extracted.series.includes(name)).length,
    seriesWithoutUnit: truth.series.filter((name) => extracted.series.some((s) => withoutUnit(s) === withoutUnit(name))).length,
    seriesWithUnit: truth.series.filter((name) => extracted.series.some((s, i) => s === name || withUnitGlued(s, extracted.units?.[i]).includes(name))).length,
    cellsWithin,
    units: (extracted.units ?? []).filter((unit) => unit !== null).length,
    estimated: extracted.rows.reduce((sum, row) => sum + (row.estimated ?? []).filter(Boolean).length, 0),
  };
}

const pct = (part: number, whole: number) => (whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)} %`);

function printScores(scores: ChartScore[]): void {
  for (const s of scores) {
    const type = `${s.type}${s.typeRight === null ? '' : s.typeRight ? ' (right)' : ' (wrong)'}`;
    process.stdout.write(
      s.stored
        ? `${s.stem.padEnd(18)} type ${type.padEnd(24)} rows ${s.rows}/${s.rowsTrue}${s.rowSetRight ? ' set right' : ' set differs'}, labels exact ${s.labelsExact}/${s.rowsTrue}; ` +
            `series exact ${s.seriesExact}/${s.series}, without unit ${s.seriesWithoutUnit}/${s.series}, with its unit ${s.seriesWithUnit}/${s.series}; cells within 2 % ${s.cellsWithin}/${s.cells}; units ${s.units}; estimated ${s.estimated}\n`
        : `${s.stem.padEnd(18)} no table stored (type ${type}); 0/${s.cells} cells\n`,
    );
  }
  const sum = (key: keyof ChartScore) => scores.reduce((total, s) => total + (typeof s[key] === 'number' ? (s[key] as number) : s[key] === true ? 1 : 0), 0);
  const typed = scores.filter((s) => s.typeRight !== null);
  process.stdout.write(
    `\ntotals over ${scores.length} charts: tables stored ${sum('stored')}; row label sets right ${sum('rowSetRight')} (${pct(sum('rowSetRight'), scores.length)}); ` +
      `row labels exact ${sum('labelsExact')}/${sum('rowsTrue')} (${pct(sum('labelsExact'), sum('rowsTrue'))}); ` +
      `series exact ${sum('seriesExact')}/${sum('series')} (${pct(sum('seriesExact'), sum('series'))}), without unit ${sum('seriesWithoutUnit')}/${sum('series')} (${pct(sum('seriesWithoutUnit'), sum('series'))}), ` +
      `with its unit put back ${sum('seriesWithUnit')}/${sum('series')} (${pct(sum('seriesWithUnit'), sum('series'))}); charts with every series named right ${scores.filter((c) => c.series > 0 && c.seriesWithUnit === c.series).length}/${scores.length}; ` +
      `cells within 2 % ${sum('cellsWithin')}/${sum('cells')} (${pct(sum('cellsWithin'), sum('cells'))}); units stored ${sum('units')}; estimated cells ${sum('estimated')}` +
      (typed.length > 0 ? `; chart type right ${typed.filter((s) => s.typeRight).length}/${typed.length} (${pct(typed.filter((s) => s.typeRight).length, typed.length)})` : '; chart types not scored (no --types)') +
      '\n',
  );
}

async function main(work: string): Promise<number> {
  const db = importImagesOnly(work);
  try {
    if (mode === 'requests') {
      const written = await extractionBatchLines(db, { split: SPLIT_NAME });
      writeFileSync(file as string, toJsonl(written.lines));
      process.stdout.write(`wrote ${written.lines.length} extraction requests for ${written.model} to ${file} (custom_id chart-<id>-<image stem>)\n`);
      return 0;
    }
    const trueTypes = flags.types ? TypesSchema.parse(JSON.parse(readFileSync(flags.types, 'utf8'))) : null;
    const report = readExtractionReplies(db, { source: file as string, text: readFileSync(file as string, 'utf8') }, getSettings(db).extraction_model);
    for (const failure of report.failed) process.stderr.write(`failed: ${failure.custom_id}: ${failure.reason}\n`);
    process.stdout.write(`${report.stored} of ${report.replies} replies stored, ${report.failed.length} failed\n\n`);
    const scores = chartsOfSplit(db).map((id) => {
      const chart = getChartSummary(db, id);
      if (!chart) throw new Error(`chart ${id} is gone`);
      const stem = stemOf(chart.imgname);
      const csv = join(splitDir, 'tables', `${stem}.csv`);
      const truth = parseTableCsv(readFileSync(csv, 'utf8'), csv);
      const known = trueTypes?.[stem];
      const trueType = known === undefined ? null : typeof known === 'string' ? known : known.chart_type;
      return scoreChart(stem, chart.chart_type, trueType, truth, getChartTable(db, id)?.data_table ?? null);
    });
    printScores(scores);
    return report.failed.length > 0 ? 2 : 0;
  } finally {
    db.close();
  }
}

const work = mkdtempSync(join(tmpdir(), 'hqa-extraction-fidelity-'));
try {
  process.exitCode = await main(work);
} finally {
  rmSync(work, { recursive: true, force: true });
}
