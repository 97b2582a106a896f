import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { poolApi } from '../../shared/api/pool';
import { CHART_TYPES } from '../../shared/domain/chart-types';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';
import { PoolPage } from './pages/pool-page';
import { SignedInBrowsers, screenshot, type Credentials } from './signed-in-browsers';

const CURATOR = { username: 'cora', password: 'curator-pass-1' };
const REVIEWER = { username: 'rita', password: 'reviewer-pass-2' };
const SEEDS_PER_TYPE = 4;
/** The hand-written seeds the server loads on first start. */
const SEEDS = z.record(z.string(), z.array(z.string())).parse(JSON.parse(readFileSync(resolve('prompts/seeds.json'), 'utf8')));


let server: TestServer;
let api: TestClient;
const browsers = new SignedInBrowsers();

beforeAll(async () => {
  // No demo split: the pool's seeds are loaded on any first start, and no test here needs a chart.
  server = await startTestServer({ demo: false });
  await server.createUser(CURATOR.username, 'curator', CURATOR.password);
  await server.createUser(REVIEWER.username, 'reviewer', REVIEWER.password);
  api = new TestClient(server.url);
  await api.login(CURATOR.username, CURATOR.password);
});

afterAll(async () => {
  await server?.close();
});

afterEach(() => browsers.closeAll());

async function openPool(user: Credentials, query = ''): Promise<PoolPage> {
  return new PoolPage(await browsers.signIn(server.url, user, null), server.url).goto(query);
}

async function proposalIdWithText(text: string): Promise<number> {
  const list = await api.call(poolApi.list, { query: { page_size: 200, q: text } });
  const found = list.proposals.find((p) => p.text === text);
  if (!found) throw new Error(`no proposal "${text}"`);
  return found.id;
}

describe('the proposal pool in the browser', () => {
  it('shows the hand-written seeds: four per chart type, counted and listed', async () => {
    const pool = await openPool(REVIEWER, '?origin=seed');
    expect(await pool.countedTypes()).toEqual([...CHART_TYPES]);
    for (const type of CHART_TYPES) expect(await pool.count(type, 'active')).toBe(SEEDS_PER_TYPE);
    expect(await pool.proposals.count()).toBe(CHART_TYPES.length * SEEDS_PER_TYPE);
    // Reviewers read the pool; only curators change it.
    expect(await pool.addForm.count()).toBe(0);
    expect(await pool.proposals.first().getByRole('button', { name: 'Retire' }).count()).toBe(0);

    await pool.page.goto(`${server.url}/pool?type=pie`);
    await expect.poll(() => pool.page.getByTestId('proposal-text').allTextContents()).toEqual(SEEDS.pie);
    await screenshot(pool.page, 'pool-page');
  });

  it('a curator adds a seed; it is listed at once, and another user sees it arrive live', async () => {
    const watcher = await openPool(REVIEWER);
    const pool = await openPool(CURATOR);
    const text = 'Suppose the line stayed flat from its highest point to the end of the period.';
    await pool.addSeed('line', text);
    await pool.addedNotice.waitFor();
    expect(await pool.addedNotice.textContent()).toMatch(/^Added seed #\d+ to the Line pool/);

    const card = pool.proposalWithText(text);
    await card.waitFor();
    expect(await card.getByTestId('proposal-status').textContent()).toBe('active');
    expect(await card.locator('.source-tag').textContent()).toBe('seed');
    await expect.poll(() => pool.count('line', 'active')).toBe(SEEDS_PER_TYPE + 1);
    expect(await pool.seedText.inputValue()).toBe('');

    // Pushed over the socket to a page that did nothing.
    await watcher.proposalWithText(text).waitFor();
    await expect.poll(() => watcher.count('line', 'active')).toBe(SEEDS_PER_TYPE + 1);
  });

  it('a near-copy of an existing seed is kept as a duplicate, pointing at the seed it copies with its ROUGE-L score', async () => {
    const pool = await openPool(CURATOR);
    const original = SEEDS.vertical_bar?.[0] ?? '';
    const originalId = await proposalIdWithText(original);
    const nearCopy = original.replace('the other bars', 'all the other bars');
    await pool.addSeed('vertical_bar', nearCopy);

    await pool.addedNotice.waitFor();
    expect(await pool.addedNotice.textContent()).toMatch(new RegExp(`duplicate of #${originalId} \\(ROUGE-L 0\\.\\d\\d\\): it is not active`));
    // The text stays in the field for another try.
    expect(await pool.seedText.inputValue()).toBe(nearCopy);
    const card = pool.proposalWithText(nearCopy);
    await card.waitFor();
    expect(await card.getByTestId('proposal-status').textContent()).toBe('duplicate');
    expect(await card.getByTestId('duplicate-of').textContent()).toMatch(new RegExp(`^duplicate of #${originalId} \\(ROUGE-L 0\\.\\d\\d\\)$`));
    await expect.poll(() => pool.count('vertical_bar', 'duplicate')).toBe(1);
    expect(await pool.count('vertical_bar', 'active')).toBe(SEEDS_PER_TYPE);
  });

  it('editing a seed into a near-copy of another is refused (409) on the text field; Esc leaves the text as it was', async () => {
    const pool = await openPool(CURATOR, '?type=pie');
    const [first, second] = SEEDS.pie ?? [];
    if (!first || !second) throw new Error('fewer than two pie seeds');
    const secondId = await proposalIdWithText(second);
    const card = pool.proposal(await proposalIdWithText(first));
    await card.getByRole('button', { name: 'Edit text' }).click();
    const field = card.getByRole('textbox');
    await field.fill(`${second.slice(0, -1)} again.`);
    await field.press('Enter');
    await expect.poll(() => pool.fieldError(field)).toMatch(new RegExp(`^too close to proposal ${secondId} \\(ROUGE-L`));
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await screenshot(pool.page, 'pool-edit-409');

    await field.press('Escape');
    expect(await card.getByTestId('proposal-text').textContent()).toBe(first);
  });

  it('a curator retires a seed and re-activates it; the counts follow', async () => {
    const pool = await openPool(CURATOR, '?type=scatter');
    const text = SEEDS.scatter?.[0] ?? '';
    const card = pool.proposalWithText(text);
    await card.getByRole('button', { name: 'Retire' }).click();
    await expect.poll(() => card.getByTestId('proposal-status').textContent()).toBe('retired');
    await expect.poll(() => pool.count('scatter', 'retired')).toBe(1);
    expect(await pool.count('scatter', 'active')).toBe(SEEDS_PER_TYPE - 1);

    await card.getByRole('button', { name: 'Re-activate' }).click();
    await expect.poll(() => card.getByTestId('proposal-status').textContent()).toBe('active');
    await expect.poll(() => pool.count('scatter', 'active')).toBe(SEEDS_PER_TYPE);
  });
});
