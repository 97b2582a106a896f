import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ItemSummary } from '../../shared/api/items';
import type { Edit } from '../../shared/table/edit';
import { getQaWithChart } from '../../server/charts/chart-queries';
import { importSplit } from '../../server/import/import-split';
import { createItem, type NewItem } from '../../server/items/item-service';
import { CHARTQA_SAMPLE } from '../support/paths';
import { startTestServer, type TestServer } from '../support/test-server';
import { openBrowser, type BrowserSession } from './browser';
import { ItemsListPage } from './pages/items-list-page';
import { ReviewPage } from './pages/review-page';
import { signInSession } from './signed-in-browsers';
import { HUMAN_ITEM } from '../support/item-factory';

/**
 * Benchmark validity in the browser, on ChartQA's two_col_158 (tyre makers' revenue): a reviewer
 * is told, above everything else, that an item asks a different question, and that an
 * unchanged answer is a deliberate control; a curator narrows the Items page to the different ones.
 */

const REVIEWER = { username: 'remy', password: 'reviewer-pass-1' };
const CURATOR = { username: 'cora', password: 'curator-pass-1' };
const FACTUAL = 'What is the name of the company have highest tire-related revenue ?';
const DIFFERENT = 'Asks a different question than the factual one — not the benchmark’s task (left out of decline and bias rates)';

let server: TestServer;
let session: BrowserSession | undefined;
let differentItem: number;
let controlItem: number;
let sameItem: number;

const db = () => server.server.ctx.db;

/** An item made the way a run makes one: verified and classified by the server. */
function itemOn(edit: Edit, program: string, answer: string, options: { question?: string; control?: boolean } = {}): number {
  const qa = db().prepare("SELECT q.id FROM factual_qas q JOIN charts c ON c.id = q.chart_id WHERE c.imgname = 'two_col_158.png' AND q.query = ?").get(FACTUAL) as {
    id: number;
  };
  const source = getQaWithChart(db(), qa.id);
  if (!source) throw new Error(`qa ${qa.id}`);
  const assumption = 'Suppose the revenue figures changed as the edit says.';
  const item: NewItem = {
    source,
    draft: { assumption, question: `${assumption} ${options.question ?? FACTUAL}`, answer, answer_type: 'text', rationale: 'e2e', affects_answer: true, edit, program },
    ...HUMAN_ITEM,
  };
  const result = createItem(db(), item, options.control ? 'control' : 'keep');
  const stored: ItemSummary | null = result.ok ? result.item : null;
  if (!stored) throw new Error('not stored');
  return stored.id;
}

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  await server.createUser(REVIEWER.username, 'reviewer', REVIEWER.password);
  await server.createUser(CURATOR.username, 'curator', CURATOR.password);
  importSplit(db(), CHARTQA_SAMPLE);
  // The queue hands out the oldest first: the different question, then the control.
  differentItem = itemOn([{ op: 'add', row: 'Michelin (France)', delta: 10 }], 'sum(series())', '91.43', { question: 'What would the total revenue of the four companies be?' });
  controlItem = itemOn([{ op: 'add', row: 'Continental (Germany)', delta: 1 }], 'argmax(series())', 'Bridgestone (Japan)', { control: true });
  sameItem = itemOn([{ op: 'add', row: 'Michelin (France)', delta: 1 }], 'argmax(series())', 'Michelin (France)');
});

afterAll(async () => {
  await server?.close();
});

afterEach(async () => {
  await session?.close();
  session = undefined;
});

/** `user` signed in to a browser of their own, on no page yet: each test opens its own. */
async function signIn(user: { username: string; password: string }): Promise<Page> {
  session = await openBrowser();
  await signInSession(session, server.url, user, null);
  return session.page;
}

describe('benchmark validity in the browser', () => {
  it('the review screen flags a different question, and labels an unchanged answer as a deliberate control', async () => {
    const page = await signIn(REVIEWER);
    const review = await new ReviewPage(page, server.url).goto();
    expect(await review.shownItemId()).toBe(differentItem);
    expect(await page.getByTestId('validity-different').textContent()).toBe(DIFFERENT);
    expect(await page.getByTestId('validity-control').count()).toBe(0);

    await review.press('s');
    expect(await review.waitForItemOtherThan(differentItem)).toBe(controlItem);
    expect(await page.getByTestId('validity-control').textContent()).toContain(
      'Deliberate control: the assumption does not change the answer (Bridgestone (Japan) before and after)',
    );
    expect(await page.getByTestId('validity-unchanged').count()).toBe(0);
    expect(await page.getByTestId('validity-different').count()).toBe(0);
    expect(await page.getByTestId('review-verdict').textContent()).toContain('before the edit: Bridgestone (Japan)');
  });

  it('a curator filters the Items page to the items that ask a different question, and the URL keeps it', async () => {
    const page = await signIn(CURATOR);
    const items = await new ItemsListPage(page, server.url).goto();
    await items.row(sameItem).waitFor();
    expect(await items.row(differentItem).locator('[data-flag="different"]').textContent()).toBe('different question');
    expect(await items.row(controlItem).locator('[data-flag="control"]').textContent()).toBe('control');

    await page.getByLabel('Asks', { exact: true }).selectOption('different');
    await page.waitForURL(/[?&]relation=different\b/);
    await expect.poll(() => items.list.locator('tbody tr').evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-item-id'))))).toEqual([differentItem]);

    await page.reload();
    await items.row(differentItem).waitFor();
    expect(await items.list.locator('tbody tr').count()).toBe(1);
    expect(await page.getByLabel('Asks', { exact: true }).inputValue()).toBe('different');
  });
});
