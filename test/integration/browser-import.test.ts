import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAndMigrate } from '../../db/database';
import { type ImportProgress, ImportProgressSchema, ImportUploadResultSchema, SplitDeletedSchema, splitsApi, SplitSummarySchema } from '../../shared/api/splits';
import { ErrorBodySchema } from '../../shared/errors';
import { eligibleQaIds } from '../../server/generation/run-queries';
import { importFolder } from '../../server/import/import-folder';
import { DEFAULT_ZIP_LIMITS, unpackZip } from '../../server/import/zip-archive';
import { runCli } from '../support/cli';
import { buildItem } from '../support/factories';
import type { TestClient } from '../support/http-client';
import { CHARTQA_SAMPLE, SEED_BENCHMARKS } from '../support/paths';
import { SignedInUsers, type SignedInUser } from '../support/signed-in-users';
import { connectAs, recordEvents, type TestSocket } from '../support/socket-client';
import { startTestServer, type TestServer } from '../support/test-server';
import { renameEntry, zipFolder } from '../support/zip-folder';
import { uploadZip } from '../support/upload-zip';
import { reviewApi } from '../../shared/api/review';

let server: TestServer;
let curator: SignedInUser;
let reviewer: SignedInUser;
let socket: TestSocket;
let work: string;

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  const users = new SignedInUsers(server);
  curator = await users.create('curator');
  reviewer = await users.create('reviewer');
  socket = await connectAs(server.url, curator.client);
  work = mkdtempSync(join(tmpdir(), 'hqa-browser-import-'));
});
afterAll(async () => {
  socket.close();
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

const upload = (client: TestClient, zip: Buffer, query: Record<string, string>) => uploadZip(server.url, client, zip, query);

/** The report `hqa import` gives for the same folder, on a database of its own. */
function cliReport(dir: string) {
  const db = openAndMigrate(join(mkdtempSync(join(work, 'cli-')), 'hqa.sqlite'));
  try {
    return importFolder(db, dir);
  } finally {
    db.close();
  }
}

/** Waits for the `import` phase to report its last step (events go out just after the response). */
async function progressOf(seen: unknown[], uploadId: string): Promise<ImportProgress[]> {
  const mine = () => seen.map((p) => ImportProgressSchema.parse(p)).filter((p) => p.upload_id === uploadId);
  await expect.poll(() => mine().some((p) => p.phase === 'import' && p.done === p.total)).toBe(true);
  return mine();
}

describe('importing a split uploaded as a zip', () => {
  it('imports the ChartQA sample with the CLI report, and sends upload, unzip and import progress to the uploader', async () => {
    const seen = recordEvents(socket, 'import.progress');
    const zip = await zipFolder(CHARTQA_SAMPLE, { top: 'chartqa-sample' });
    const res = await upload(curator.client, zip, { filename: 'chartqa-sample.zip', upload_id: 'u-chartqa' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const result = ImportUploadResultSchema.parse(res.body);
    expect(result).toEqual(cliReport(CHARTQA_SAMPLE));
    expect(result.report.charts_imported).toBeGreaterThan(0);

    const progress = await progressOf(seen, 'u-chartqa');
    expect(new Set(progress.map((p) => p.phase))).toEqual(new Set(['upload', 'unzip', 'import']));
    expect(progress.find((p) => p.phase === 'upload' && p.done === zip.length)?.total).toBe(zip.length);
    expect(progress.filter((p) => p.phase === 'import').at(-1)).toMatchObject({ done: result.report.charts_imported, total: result.report.charts_imported });
  });

  it('imports the MultiChartQA sample zipped in a temporary folder, detected by its layout', async () => {
    const root = join(SEED_BENCHMARKS, 'multichartqa');
    const zipPath = join(work, 'multichartqa.zip');
    writeFileSync(zipPath, await zipFolder(root, { filter: (path) => path.startsWith('data/') }));
    const res = await upload(curator.client, readFileSync(zipPath), { filename: 'multichartqa.zip' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const result = ImportUploadResultSchema.parse(res.body);
    expect(result.format).toBe('multichartqa');
    expect(result).toEqual(cliReport(root));
    expect(result.report.groups_imported).toBeGreaterThan(0);
  });

  it('reads ChartBench and CharXiv images from inside the zip (the CLI takes them from --images)', async () => {
    // The signature is all the importer checks of an image's bytes; these stand for real files.
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    const imagesOf = (split: string) =>
      server.server.ctx.db.prepare('SELECT c.imgname FROM chart_images i JOIN charts c ON c.id = i.chart_id WHERE c.split = ? ORDER BY c.imgname').pluck().all(split);

    const chartbench = await zipFolder(join(SEED_BENCHMARKS, 'chartbench'), {
      filter: (path) => path.endsWith('.jsonl'),
      extra: { 'data/test/area/area/chart_0/image.png': png },
    });
    const bench = await upload(curator.client, chartbench, { filename: 'chartbench.zip', format: 'chartbench', split: 'cb-upload' });
    expect(bench.status, JSON.stringify(bench.body)).toBe(200);
    const benchReport = ImportUploadResultSchema.parse(bench.body).report;
    expect(imagesOf('cb-upload')).toHaveLength(1);
    expect(benchReport.images_missing).toBe(benchReport.charts_imported - 1);

    const charxiv = await zipFolder(join(SEED_BENCHMARKS, 'charxiv'), {
      filter: (path) => path.startsWith('data/'),
      extra: { 'images/0.jpg': jpeg, 'images/2.jpg': jpeg },
    });
    const xiv = await upload(curator.client, charxiv, { filename: 'charxiv.zip', format: 'charxiv', split: 'cx-upload' });
    expect(xiv.status, JSON.stringify(xiv.body)).toBe(200);
    expect(imagesOf('cx-upload')).toEqual(['0.jpg', '2.jpg']);
  });

  it('refuses a zip-slip entry by name and unpacks nothing of that zip', async () => {
    const before = SplitSummarySchema.array().parse((await curator.client.send(splitsApi.list)).body);
    const zip = renameEntry(await zipFolder(CHARTQA_SAMPLE, { top: 'slip', extra: { 'zz/evil.csv': 'x,y\n1,2\n' } }), 'zz/evil.csv', '../evil.csv');
    const res = await upload(curator.client, zip, { filename: 'slip.zip' });
    expect(res.status).toBe(400);
    expect(ErrorBodySchema.parse(res.body).error.message).toContain('../evil.csv');
    expect(SplitSummarySchema.array().parse((await curator.client.send(splitsApi.list)).body)).toEqual(before);
  });

  it('refuses a zip that unpacks past the limit (a bomb) before writing it', async () => {
    const zipPath = join(work, 'bomb.zip');
    writeFileSync(zipPath, await zipFolder(CHARTQA_SAMPLE, { extra: { 'zeros.csv': '0'.repeat(5_000_000) } }));
    await expect(unpackZip(zipPath, join(work, 'bomb'), { ...DEFAULT_ZIP_LIMITS, maxEntryBytes: 1_000_000 })).rejects.toThrow(/entry "zeros.csv" unpacks to 5000000 bytes/);
  });

  it('warns when a zip has tables but no question files, naming the files looked for', async () => {
    const zip = await zipFolder(CHARTQA_SAMPLE, { top: 'tables-only', filter: (path) => path.startsWith('tables/') });
    const res = await upload(curator.client, zip, { filename: 'tables-only.zip' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { report } = ImportUploadResultSchema.parse(res.body);
    expect(report).toMatchObject({ split: 'tables-only', qas_imported: 0, errors: [] });
    expect(report.charts_imported).toBeGreaterThan(0);
    expect(report.warnings).toEqual([expect.stringContaining('no question files for split "tables-only": looked for files named <name>_human.json or <name>_augmented.json')]);
    expect(report.warnings?.[0]).not.toMatch(/--\w/);
  });

  it('hqa import prints the same warning for a folder with tables but no question files', async () => {
    const dir = join(work, 'cli-tables-only');
    cpSync(join(CHARTQA_SAMPLE, 'tables'), join(dir, 'tables'), { recursive: true });
    const result = await runCli(['import', dir], { dbPath: join(work, 'cli-warning.sqlite') });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain('warning: ');
    expect(result.stderr).toContain('no question files for split "cli-tables-only": looked for files named <name>_human.json or <name>_augmented.json');
    expect(result.stdout).toContain('0 questions imported');
  });

  it('reads the same question files whatever split name the form gives: the name only names the split', async () => {
    const zip = await zipFolder(CHARTQA_SAMPLE, { top: 'chartqa-sample' });
    const res = await upload(curator.client, zip, { filename: 'chartqa-sample.zip', split: 'named-in-form' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { report } = ImportUploadResultSchema.parse(res.body);
    const cli = cliReport(CHARTQA_SAMPLE).report;
    expect(cli.qas_imported).toBeGreaterThan(0);
    expect(report).toMatchObject({ split: 'named-in-form', charts_imported: cli.charts_imported, qas_imported: cli.qas_imported, errors: [] });
    expect(report.warnings).toBeUndefined();
    const listed = SplitSummarySchema.array().parse((await curator.client.send(splitsApi.list)).body).find((split) => split.name === 'named-in-form');
    expect(listed).toMatchObject({ charts: cli.charts_imported, questions: cli.qas_imported });
  });

  it('speaks of the form’s fields, never of command-line flags, when it refuses a browser upload', async () => {
    const badName = await upload(curator.client, await zipFolder(CHARTQA_SAMPLE, { top: 'bad-name' }), { filename: 'bad-name.zip', split: 'two words' });
    expect(badName.status).toBe(400);
    const nameMessage = ErrorBodySchema.parse(badName.body).error.message;
    expect(nameMessage).toMatch(/^Split name: "two words" must be 1–100 letters, digits/);
    expect(nameMessage).not.toMatch(/--\w/);

    const unknown = await upload(curator.client, await zipFolder(CHARTQA_SAMPLE, { top: 'notes', filter: (path) => path === 'README.md' }), { filename: 'notes.zip' });
    const formatMessage = ErrorBodySchema.parse(unknown.body).error.message;
    expect(formatMessage).toContain('Choose one in the Format field');
    expect(formatMessage).not.toMatch(/--\w/);

    // The command line keeps its own words.
    const dir = join(work, 'cli-bad-name');
    cpSync(join(CHARTQA_SAMPLE, 'tables'), join(dir, 'tables'), { recursive: true });
    expect((await runCli(['import', dir, '--split', 'two words'], { dbPath: join(work, 'cli-bad-name.sqlite') })).stderr).toContain('--split: "two words" must be');
  });

  it('deletes a split just imported with 0 questions, charts and all; refuses one with items, naming them', async () => {
    const db = server.server.ctx.db;
    const zip = await zipFolder(CHARTQA_SAMPLE, { top: 'wrong-zip', filter: (path) => path.startsWith('tables/') });
    const imported = ImportUploadResultSchema.parse((await upload(curator.client, zip, { filename: 'wrong-zip.zip' })).body).report;
    expect(imported).toMatchObject({ split: 'wrong-zip', qas_imported: 0 });
    const listed = () => SplitSummarySchema.array().parse(curatorSplits.body);
    let curatorSplits = await curator.client.send(splitsApi.list);
    expect(listed().find((split) => split.name === 'wrong-zip')).toMatchObject({ charts: imported.charts_imported, questions: 0, deletable: true });

    const seen = recordEvents(socket, 'split.deleted');
    expect((await reviewer.client.send(splitsApi.remove, { params: { name: 'wrong-zip' } })).status).toBe(403);
    const res = await curator.client.send(splitsApi.remove, { params: { name: 'wrong-zip' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(SplitDeletedSchema.parse(res.body)).toEqual({ name: 'wrong-zip', charts: imported.charts_imported, questions: 0, groups: 0 });
    curatorSplits = await curator.client.send(splitsApi.list);
    expect(listed().map((split) => split.name)).not.toContain('wrong-zip');
    expect(db.prepare("SELECT COUNT(*) AS n FROM charts WHERE split = 'wrong-zip'").get()).toEqual({ n: 0 });
    await expect.poll(() => seen).toEqual([{ name: 'wrong-zip' }]);
    expect(db.prepare("SELECT actor_id IS NOT NULL AS by_someone, details FROM audit_log WHERE action = 'split.deleted' AND target_id = 'wrong-zip'").get()).toEqual({
      by_someone: 1,
      details: JSON.stringify({ charts: imported.charts_imported, questions: 0, groups: 0 }),
    });
    expect((await curator.client.send(splitsApi.remove, { params: { name: 'wrong-zip' } })).status).toBe(404);

    // A split items were made from stays: archive it instead.
    const qa = db.prepare("SELECT q.id FROM factual_qas q JOIN charts c ON c.id = q.chart_id WHERE c.split = 'named-in-form' ORDER BY q.id LIMIT 1").get() as { id: number };
    buildItem(db, { qaId: qa.id });
    curatorSplits = await curator.client.send(splitsApi.list);
    expect(listed().find((split) => split.name === 'named-in-form')?.deletable).toBe(false);
    const refused = await curator.client.send(splitsApi.remove, { params: { name: 'named-in-form' } });
    expect(refused.status).toBe(409);
    expect(ErrorBodySchema.parse(refused.body).error.message).toBe('split "named-in-form" cannot be deleted: work was made from it (1 item). Archive it instead: that keeps everything.');
    expect(db.prepare("SELECT COUNT(*) AS n FROM charts WHERE split = 'named-in-form'").get()).toEqual({ n: imported.charts_imported });
    // As the refusal says (and out of the review queue the next tests count).
    expect((await curator.client.send(splitsApi.update, { params: { name: 'named-in-form' }, body: { archived: true } })).status).toBe(200);
  });

  it('refuses uploads from reviewers and bodies that are not zips', async () => {
    expect((await upload(reviewer.client, await zipFolder(CHARTQA_SAMPLE), {})).status).toBe(403);
    const res = await upload(curator.client, Buffer.from('not a zip'), { filename: 'x.zip' });
    expect(res.status).toBe(400);
    expect(ErrorBodySchema.parse(res.body).error.message).toMatch(/not a readable zip/);

    // A zip in no known layout: the importer's own message, naming the zip rather than the temporary folder.
    const unknown = await upload(curator.client, await zipFolder(CHARTQA_SAMPLE, { top: 'notes', filter: (path) => path === 'README.md' }), { filename: 'notes.zip' });
    expect(unknown.status).toBe(400);
    const message = ErrorBodySchema.parse(unknown.body).error.message;
    expect(message).toMatch(/^notes\.zip: cannot tell the format; looked for tables\/ \(ChartQA\)/);
    expect(message).not.toContain(tmpdir());
  });
});

describe('splits: listed with counts, renamed, archived', () => {
  it('lists each split with its charts, questions and items; a rename changes the label only', async () => {
    const db = server.server.ctx.db;
    const list = SplitSummarySchema.array().parse((await curator.client.send(splitsApi.list)).body);
    const test = list.find((s) => s.name === 'test');
    const counted = db.prepare("SELECT COUNT(DISTINCT c.id) AS charts, COUNT(q.id) AS questions FROM charts c LEFT JOIN factual_qas q ON q.chart_id = c.id WHERE c.split = 'test'").get() as { charts: number; questions: number };
    expect(test).toEqual({ name: 'test', label: null, archived_at: null, items: 0, deletable: true, ...counted });

    const renamed = await curator.client.send(splitsApi.update, { params: { name: 'test' }, body: { label: 'ChartQA test (sample)' } });
    expect(renamed.status).toBe(200);
    expect(SplitSummarySchema.parse(renamed.body)).toMatchObject({ name: 'test', label: 'ChartQA test (sample)', charts: counted.charts });
    expect((db.prepare("SELECT COUNT(*) AS n FROM charts WHERE split = 'test'").get() as { n: number }).n).toBe(counted.charts);
    expect((await reviewer.client.send(splitsApi.update, { params: { name: 'test' }, body: { label: 'x' } })).status).toBe(403);
    expect((await curator.client.send(splitsApi.update, { params: { name: 'no-such-split' }, body: { label: 'x' } })).status).toBe(404);
  });

  it('archiving hides the split from run planning and the review queue, deleting nothing; unarchiving brings it back', async () => {
    const db = server.server.ctx.db;
    const qa = db.prepare("SELECT q.id FROM factual_qas q JOIN charts c ON c.id = q.chart_id WHERE c.split = 'test' ORDER BY q.id LIMIT 1").get() as { id: number };
    const itemId = buildItem(db, { qaId: qa.id });
    const planned = () => eligibleQaIds(db, { split: 'test', onlyNew: false }).length;
    const next = async (who: SignedInUser) => {
      const res = await who.client.send(reviewApi.next, { body: {} });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return (res.body as { task: { item: { id: number } } | null }).task;
    };
    const plannedBefore = planned();
    expect(plannedBefore).toBeGreaterThan(0);

    const archived = await curator.client.send(splitsApi.update, { params: { name: 'test' }, body: { archived: true } });
    expect(archived.status).toBe(200);
    expect(SplitSummarySchema.parse(archived.body).archived_at).not.toBeNull();
    expect(planned()).toBe(0);
    expect(await next(reviewer)).toBeNull();
    expect(SplitSummarySchema.array().parse((await curator.client.send(splitsApi.list)).body).find((s) => s.name === 'test')).toMatchObject({ archived_at: expect.any(String), items: 1 });

    await curator.client.send(splitsApi.update, { params: { name: 'test' }, body: { archived: false } });
    expect(planned()).toBe(plannedBefore);
    expect((await next(reviewer))?.item.id).toBe(itemId);
  });
});
