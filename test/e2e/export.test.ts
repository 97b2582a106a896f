import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChartHqaExportV1Schema, ChartQaExportSchema } from '../../shared/export/chart-hqa';
import { listItemIds, setItemStatus } from '../support/factories';
import { generateItems } from '../support/review-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';
import { openBrowser, type BrowserSession } from './browser';
import { signInSession } from './signed-in-browsers';
import { exportApi } from '../../shared/api/export';
import { pageSend } from './page-call';

let server: TestServer;
let session: BrowserSession | undefined;

beforeAll(async () => {
  server = await startTestServer();
  const run = await generateItems(server, 5);
  const { db } = server.server.ctx;
  setItemStatus(db, 'accepted', listItemIds(db, { runId: run }).filter((id) => id % 2 === 1));
  await server.createUser('cora', 'curator', 'curator-pass-1');
  await server.createUser('rev', 'reviewer', 'reviewer-pass-1');
});
afterAll(async () => {
  await session?.close();
  await server?.close();
});

async function openEvaluation(username: string, password: string) {
  session = await openBrowser();
  await signInSession(session, server.url, { username, password }, '/evaluation');
  return session.page;
}

describe('exporting from the UI', () => {
  it('a curator downloads the accepted items as Chart-HQA JSON and as a ChartQA file', async () => {
    const page = await openEvaluation('cora', 'curator-pass-1');
    const accepted = (server.server.ctx.db.prepare("SELECT COUNT(*) AS n FROM hqa_items WHERE status = 'accepted'").get() as { n: number }).n;
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-download').click()]);
    const doc = ChartHqaExportV1Schema.parse(JSON.parse(readFileSync((await download.path()) ?? '', 'utf8')));
    expect(download.suggestedFilename()).toBe('chart-hqa.json');
    expect(doc.items).toHaveLength(accepted);
    expect(doc.stats.questions).toBe(accepted);

    await page.getByLabel(/ChartQA question file/).check();
    const [chartqa] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-download').click()]);
    // ChartQA's files name one image per question: items over a chart group are left out (and counted).
    const overGroups = (server.server.ctx.db.prepare("SELECT COUNT(*) AS n FROM hqa_items i JOIN factual_qas q ON q.id = i.qa_id WHERE i.status = 'accepted' AND q.group_id IS NOT NULL").get() as { n: number }).n;
    expect(ChartQaExportSchema.parse(JSON.parse(readFileSync((await chartqa.path()) ?? '', 'utf8')))).toHaveLength(accepted - overGroups);
    await session?.close();
    session = undefined;
  });

  it('a reviewer gets no download, and the route refuses them', async () => {
    const page = await openEvaluation('rev', 'reviewer-pass-1');
    await page.getByText('Curators export the dataset.').waitFor();
    expect(await page.getByTestId('export-download').count()).toBe(0);
    expect((await pageSend(page, exportApi.download, { body: {} })).status).toBe(403);
  });
});
