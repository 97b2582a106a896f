import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportApi } from '../../shared/api/export';
import { ErrorBodySchema } from '../../shared/errors';
import { DEFAULT_ZIP_LIMITS, unpackZip } from '../../server/import/zip-archive';
import { runCli } from '../support/cli';
import { TestClient } from '../support/http-client';
import { generateItems } from '../support/review-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';
import { setItemStatus } from '../support/factories';

/**
 * The Evaluation page's downloads against `hqa export`: an empty export is refused with the CLI's
 * own reason, and the Hugging Face dataset comes as a zip of the files the CLI writes.
 */

let server: TestServer;
let curator: TestClient;
let reviewer: TestClient;
const work = mkdtempSync(join(tmpdir(), 'hqa-export-page-'));

beforeAll(async () => {
  server = await startTestServer();
  await server.createUser('cora', 'curator', 'curator-pass-1');
  await server.createUser('rev', 'reviewer', 'reviewer-pass-1');
  curator = new TestClient(server.url);
  await curator.login('cora', 'curator-pass-1');
  reviewer = new TestClient(server.url);
  await reviewer.login('rev', 'reviewer-pass-1');
});
afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

const db = () => server.server.ctx.db;
const downloads = () => (db().prepare("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'export.downloaded'").get() as { n: number }).n;

/** Every file under `dir`, relative, in name order. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name), `${prefix}${name}/`) : [`${prefix}${name}`]));
}

/** The CLI's refusal for the server's own database, as it prints it. */
async function cliRefusal(): Promise<string> {
  const result = await runCli(['export', '--out', join(work, 'refused.json')], { dbPath: server.dbPath });
  expect(result.status).toBe(1);
  return result.stderr.replace(/^hqa: /, '').trimEnd();
}

describe('exporting from the page with nothing accepted', () => {
  it('is refused before any file, with the reason hqa export gives, by the status and by each download', async () => {
    const status = await curator.call(exportApi.status);
    expect(status.refusal).toBe('no accepted items: no items yet (import a split and generate or write items)');
    expect(status.refusal).toBe(await cliRefusal());

    await generateItems(server, 3);
    const unreviewed = (await curator.call(exportApi.status)).refusal;
    expect(unreviewed).toBe('no accepted items: 0 of 3 items reviewed yet');
    expect(unreviewed).toBe(await cliRefusal());

    for (const [download, body] of [[exportApi.download, {}], [exportApi.download, { format: 'chartqa' }], [exportApi.hfDataset, {}]] as const) {
      const res = await curator.send(download, { body });
      expect(res.status, download.path).toBe(409);
      expect(ErrorBodySchema.parse(res.body).error).toEqual({ code: 'conflict', message: unreviewed });
    }
    expect(downloads()).toBe(0);
    expect((await reviewer.send(exportApi.status)).status).toBe(403);
    expect((await reviewer.send(exportApi.hfDataset)).status).toBe(403);
  });
});

describe('the Hugging Face dataset from the page', () => {
  it('is a zip of the files hqa export --format hf-dataset writes, under the dataset’s name', async () => {
    setItemStatus(db(), 'accepted');
    expect((await curator.call(exportApi.status)).refusal).toBeNull();

    const res = await fetch(`${server.url}/api/export/hf-dataset`, { method: 'POST', headers: { cookie: curator.cookie, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'hqa-page' }) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename=hqa-page.zip');
    const zipPath = join(work, 'hqa-page.zip');
    writeFileSync(zipPath, Buffer.from(await res.arrayBuffer()));
    const unzipped = join(work, 'unzipped');
    await unpackZip(zipPath, unzipped, DEFAULT_ZIP_LIMITS);

    const cliOut = join(work, 'cli', 'hqa-page');
    const cli = await runCli(['export', '--format', 'hf-dataset', '--out', cliOut, '--name', 'hqa-page'], { dbPath: server.dbPath });
    expect(cli.status, cli.stderr).toBe(0);

    // One folder named for the dataset, holding the CLI's files byte for byte (the card's date aside).
    expect(readdirSync(unzipped)).toEqual(['hqa-page']);
    const page = join(unzipped, 'hqa-page');
    const files = filesUnder(cliOut);
    expect(filesUnder(page)).toEqual(files);
    expect(files).toEqual(expect.arrayContaining(['README.md', 'metadata.jsonl']));
    expect(files.filter((file) => file.startsWith('images/')).length).toBeGreaterThan(0);
    const undated = (text: string) => text.replace(/\d{4}-\d{2}-\d{2}/g, 'DATE');
    for (const file of files) {
      if (file === 'README.md') expect(undated(readFileSync(join(page, file), 'utf8'))).toBe(undated(readFileSync(join(cliOut, file), 'utf8')));
      else expect(readFileSync(join(page, file)).equals(readFileSync(join(cliOut, file))), file).toBe(true);
    }
    expect(readFileSync(join(page, 'metadata.jsonl'), 'utf8').trimEnd().split('\n')).toHaveLength(3);

    const audited = db().prepare("SELECT target_id, details FROM audit_log WHERE action = 'export.downloaded'").all();
    expect(audited).toEqual([{ target_id: 'hf-dataset', details: JSON.stringify({ format: 'hf-dataset', name: 'hqa-page', items: 3, images: files.filter((file) => file.startsWith('images/')).length }) }]);
  });
});
