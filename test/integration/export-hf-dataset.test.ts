import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAndMigrate, type Db } from '../../db/database';
import { HfMetadataLineSchema, type HfMetadataLine } from '../../shared/export/hf-dataset';
import { exportStats } from '../../server/export/export-queries';
import { HF_FEATURES } from '../../server/export/dataset-card';
import { conditionDrawing } from '../../server/eval/condition-drawings';
import { createUser } from '../../server/users/user-service';
import { runCli } from '../support/cli';
import { buildReview, setItemStatus } from '../support/factories';

/** js-yaml ships with ESLint's config loader; typed here by the one call the test makes. */
const yaml = createRequire(import.meta.url)('js-yaml') as { load: (text: string) => unknown };

const dir = mkdtempSync(join(tmpdir(), 'hqa-hf-'));
const dbPath = join(dir, 'hqa.sqlite');
const out = join(dir, 'dataset');
let db: Db;
let itemIds: number[] = [];
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The demo split, imported, and items for it from the offline engine: nothing reviewed yet. */
beforeAll(async () => {
  const split = join(dir, 'demo');
  expect((await runCli(['demo', split, '--charts', '12'], { dbPath })).status).toBe(0);
  expect((await runCli(['import', split, '--json'], { dbPath })).status).toBe(0);
  const generated = await runCli(['generate', '--engine', 'offline', '--items', '12', '--json'], { dbPath });
  expect(generated.stderr).toBe('');
  db = openAndMigrate(dbPath);
  itemIds = (db.prepare('SELECT id FROM hqa_items ORDER BY id').all() as { id: number }[]).map((row) => row.id);
  expect(itemIds.length).toBeGreaterThan(3);
}, 120_000);

const decide = (itemId: number, reviewerId: number, decision: 'accept' | 'reject') => {
  buildReview(db, { itemId, reviewerId, decision, ...(decision === 'reject' ? { criteria: { correctness: { pass: false, note: 'wrong' } }, feedback: 'wrong answer' } : {}) });
  setItemStatus(db, decision === 'accept' ? 'accepted' : 'rejected', [itemId]);
};

describe('hqa export with no accepted items', () => {
  it('says why and exits non-zero, writing nothing: no items, none reviewed, none of the reviewed accepted', async () => {
    const empty = await runCli(['export', '--out', join(dir, 'none.json')], { dbPath: join(dir, 'empty.sqlite') });
    expect(empty.status).toBe(1);
    expect(empty.stderr).toBe('hqa: no accepted items: no items yet (import a split and generate or write items)\n');

    const target = join(dir, 'unreviewed.json');
    const unreviewed = await runCli(['export', '--out', target], { dbPath });
    expect(unreviewed.status).toBe(1);
    expect(unreviewed.stderr).toBe(`hqa: no accepted items: 0 of ${itemIds.length} items reviewed yet\n`);
    expect(existsSync(target)).toBe(false);

    const reviewer = (await createUser(db, 'rhea', 'reviewer', 'rhea-password')).user;
    decide(itemIds[0] ?? 0, reviewer.id, 'reject');
    const rejected = await runCli(['export', '--out', join(dir, 'rejected'), '--format', 'hf-dataset'], { dbPath });
    expect(rejected.status).toBe(1);
    expect(rejected.stderr).toBe(`hqa: no accepted items: 1 of ${itemIds.length} items reviewed, none accepted (1 rejected)\n`);
    expect(existsSync(join(dir, 'rejected'))).toBe(false);
  });
});

describe('hqa export --format hf-dataset', () => {
  let lines: HfMetadataLine[] = [];
  let report: { items: number; images: number; format: string };

  beforeAll(async () => {
    const reviewer = (await createUser(db, 'remy', 'reviewer', 'remy-password')).user;
    // The first item stays rejected (above); the others are accepted.
    for (const id of itemIds.slice(1)) decide(id, reviewer.id, 'accept');
    const result = await runCli(['export', '--format', 'hf-dataset', '--out', out, '--name', 'chart-hqa-demo', '--json'], { dbPath });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    report = JSON.parse(result.stdout) as typeof report;
    lines = readFileSync(join(out, 'metadata.jsonl'), 'utf8').trimEnd().split('\n').map((line) => HfMetadataLineSchema.strict().parse(JSON.parse(line)));
  }, 120_000);

  it('writes one metadata line per accepted item, each naming a PNG under images/ that exists', () => {
    expect(report).toMatchObject({ format: 'hf-dataset', items: itemIds.length - 1 });
    expect(lines.map((line) => Number(line.id.slice(4)))).toEqual(itemIds.slice(1));
    for (const line of lines) {
      expect(line.file_name).toBe(`images/${line.imgname}${line.imgname.endsWith('.png') ? '' : '.png'}`);
      const file = join(out, line.file_name);
      expect(existsSync(file), line.file_name).toBe(true);
      expect(readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
    }
    // Each chart once: several items share it.
    const charts = new Set(lines.map((line) => line.file_name));
    expect(readdirSync(join(out, 'images')).length).toBe(charts.size);
    expect(report.images).toBe(charts.size);
    expect(readdirSync(out).sort()).toEqual(['README.md', 'counterfactual', 'images', 'metadata.jsonl']);
  });

  it('carries each item’s counterfactual drawing: its edited table drawn as a PNG, unlike the drawing of its original', async () => {
    const drawn = lines.filter((line) => line.counterfactual_image_file_name !== null);
    expect(drawn.length).toBeGreaterThan(lines.length / 2);
    expect(readdirSync(join(out, 'counterfactual')).length).toBe(drawn.length);
    for (const line of drawn) {
      expect(line.counterfactual_image_file_name).toBe(`counterfactual/${line.id}.png`);
      const png = readFileSync(join(out, line.counterfactual_image_file_name ?? ''));
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      // The same drawing the evaluation's counterfactual_image condition sends, and not the original's.
      const itemId = Number(line.id.slice(4));
      expect(png.equals(await conditionDrawing(db, itemId, 'drawn_counterfactual'))).toBe(true);
      expect(png.equals(await conditionDrawing(db, itemId, 'drawn_original'))).toBe(false);
    }
  });

  it('has a dataset card whose front matter parses as YAML: licence to fill, configs, features of every column, the split size', () => {
    const card = readFileSync(join(out, 'README.md'), 'utf8');
    const match = /^---\n([\s\S]*?)\n---\n/.exec(card);
    expect(match).not.toBeNull();
    const front = yaml.load(match?.[1] ?? '') as {
      license: unknown;
      pretty_name: string;
      task_categories: string[];
      size_categories: string[];
      configs: { config_name: string; data_files: { split: string; path: string[] }[] }[];
      dataset_info: { features: { name: string; dtype?: string; struct?: { name: string }[] }[]; splits: { name: string; num_examples: number }[] };
    };
    expect(front).toHaveProperty('license', '');
    expect(front.pretty_name).toBe('chart-hqa-demo');
    expect(front.task_categories).toEqual(['visual-question-answering']);
    expect(front.size_categories).toEqual(['n<1K']);
    expect(front.configs).toEqual([{ config_name: 'default', data_files: [{ split: 'test', path: ['metadata.jsonl', 'images/**', 'counterfactual/**'] }] }]);
    expect(front.dataset_info.splits).toEqual([{ name: 'test', num_examples: lines.length }]);
    // The card's features are the metadata line's columns, each `*file_name` read as its image column.
    const first = lines[0] as HfMetadataLine;
    const { file_name: _file, counterfactual_image_file_name: _drawn, ...columns } = first;
    expect(front.dataset_info.features.map((feature) => feature.name)).toEqual(['image', 'counterfactual_image', ...Object.keys(columns)]);
    expect(front.dataset_info.features.find((feature) => feature.name === 'review')?.struct?.map((field) => field.name)).toEqual(Object.keys(first.review));
    expect(front.dataset_info.features.find((feature) => feature.name === 'original')?.struct?.map((field) => field.name)).toEqual(Object.keys(first.original));
    expect(HF_FEATURES.map((feature) => feature.name)).toEqual(front.dataset_info.features.map((feature) => feature.name));
  });

  it('states Table 2 over the exported items and the review protocol', () => {
    const card = readFileSync(join(out, 'README.md'), 'utf8');
    const stats = exportStats(db);
    expect(stats.questions).toBe(lines.length);
    expect(card).toContain(`| questions | ${stats.questions} |`);
    expect(card).toContain(`| charts | ${stats.charts} |`);
    expect(card).toContain(`| proposals | ${stats.proposals} |`);
    expect(card).toContain(`| integer answers | ${stats.answer_types.integer} |`);
    expect(card).toContain(`| average characters per question | ${stats.avg_chars.question} |`);
    expect(card).toContain(`| pass rate (accepted of decided items) | ${stats.pass_rate}% |`);
    expect(stats.pass_rate).toBeLessThan(100);
    expect(card).toMatch(/## Review protocol[\s\S]*\*\*rationality\*\*[\s\S]*Each item needs 1 review; the majority rule decides/);
    expect(card).toContain('## Licence');
  });

  const python = spawnSync('python3', ['-c', 'import datasets'], { encoding: 'utf8' });
  const hasDatasets = python.status === 0;
  it.skipIf(!hasDatasets)(`loads with datasets.load_dataset("imagefolder", data_dir=DIR)${hasDatasets ? '' : ' — skipped: python3 has no `datasets` module (not installed at test time)'}`, () => {
    const script = [
      'import json, sys',
      'from datasets import load_dataset',
      'ds = load_dataset("imagefolder", data_dir=sys.argv[1], split="train")',
      'print(json.dumps({"rows": len(ds), "columns": ds.column_names, "first": {k: v for k, v in ds[0].items() if k != "image"}, "size": list(ds[0]["image"].size)}))',
    ].join('\n');
    const loaded = spawnSync('python3', ['-c', script, out], { encoding: 'utf8', timeout: 120_000 });
    expect(loaded.status, loaded.stderr).toBe(0);
    const result = JSON.parse(loaded.stdout.trim().split('\n').at(-1) ?? '{}') as { rows: number; columns: string[]; first: Record<string, unknown>; size: number[] };
    expect(result.rows).toBe(lines.length);
    expect(result.columns).toContain('image');
    expect(result.columns).toContain('question');
    expect(result.first.id).toBe(lines[0]?.id);
    expect(result.size[0]).toBeGreaterThan(0);
  });
});
