import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listLlmCalls } from '../../server/llm/llm-call-queries';
import { getChartTable } from '../../server/tables/table-queries';
import { jsonReply, slowReply } from '../support/fake-openai';
import { CURATOR, EXTRACTED_TABLE, IMAGE_ONLY_SPLIT as SPLIT, startImageOnlySplit, type ImageOnlySplit } from '../support/image-only-split';
import type { TestServer } from '../support/test-server';
import { openBrowser, UI_TIMEOUT_MS, type BrowserSession } from './browser';
import { ExtractTablesPanel } from './pages/extract-tables-panel';
import { SplitsPage } from './pages/splits-page';
import { signInSession } from './signed-in-browsers';

/** A curator extracts the tables of a whole image-only split (MultiChartQA) from the Splits page. */

let setup: ImageOnlySplit | undefined;
let server: TestServer;
let session: BrowserSession | undefined;

beforeAll(async () => {
  // Each reply takes a moment, so the progress panel is seen before the job is done.
  setup = await startImageOnlySplit({ fake: { defaultHandler: () => slowReply(150, jsonReply(EXTRACTED_TABLE)) } });
  ({ server } = setup);
});
afterAll(async () => {
  await session?.close();
  await setup?.close();
});

describe('extracting a split’s tables', () => {
  it('the split’s button states the count and the model, the job’s progress reaches done, and the charts show extracted, not confirmed', async () => {
    const { db } = server.server.ctx;
    const charts = (db.prepare('SELECT id FROM charts WHERE split = ?').all(SPLIT) as { id: number }[]).map((r) => r.id);
    expect(charts).toHaveLength(6);

    session = await openBrowser();
    const { page } = session;
    await signInSession(session, server.url, CURATOR, '/splits');
    const splits = new SplitsPage(page);
    const panel = new ExtractTablesPanel(splits.row(SPLIT));
    await expect.poll(() => panel.button.textContent(), { timeout: UI_TIMEOUT_MS }).toBe('Extract tables (6 charts)');

    const confirmation = await panel.start();
    expect(confirmation).toContain('Read the tables of 6 charts in split multichartqa from their images with gpt-4o?');
    expect(confirmation).toContain('stored as extracted, not confirmed');

    await panel.progress.waitFor();
    await expect.poll(() => panel.status.textContent(), { timeout: 30_000 }).toBe('done');
    expect(await panel.bar.getAttribute('data-done')).toBe('6');
    expect(await panel.bar.getAttribute('data-failed')).toBe('0');
    // Six requests, each a 1568×1107 image gpt-4o reads as 6 tiles: 6 × (85 + 6 × 170) tokens at $2.50 per million.
    await expect.poll(() => panel.progress.getByTestId('extraction-image-tokens').textContent(), { timeout: UI_TIMEOUT_MS }).toBe(`~${(6 * 1105).toLocaleString('en-US')} (~$${((6 * 1105 * 2.5) / 1e6).toFixed(4)})`);
    // Nothing is left to extract: the button counts again.
    await expect.poll(() => panel.button.textContent(), { timeout: UI_TIMEOUT_MS }).toBe('Extract tables (0 charts)');
    expect(await panel.button.isDisabled()).toBe(true);

    for (const id of charts) expect(getChartTable(db, id)).toMatchObject({ table_source: 'extracted', table_confirmed: false });
    expect(listLlmCalls(db).filter((c) => c.purpose === 'extraction')).toHaveLength(6);

    await page.goto(`${server.url}/charts?split=${SPLIT}`);
    const marks = page.getByTestId('chart-list').getByTestId('table-unconfirmed');
    await expect.poll(() => marks.count(), { timeout: UI_TIMEOUT_MS }).toBe(6);
    expect((await marks.first().textContent())?.trim()).toBe('extracted, not confirmed');
    // On the Charts page the filter's button has nothing left either.
    await expect.poll(() => new ExtractTablesPanel(page.locator('.page')).button.textContent(), { timeout: UI_TIMEOUT_MS }).toBe('Extract tables (0 charts)');
  }, 60_000);
});
