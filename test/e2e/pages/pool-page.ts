import type { Locator, Page } from 'playwright-core';

/** The proposal pool at /pool: counts, the add-seed form, the proposal cards. */
export class PoolPage {
  readonly counts: Locator;
  readonly list: Locator;
  readonly proposals: Locator;
  readonly addForm: Locator;
  readonly seedText: Locator;
  readonly seedType: Locator;
  readonly addedNotice: Locator;
  readonly reflectAllButton: Locator;
  /** The started batch's panel: `data-status` is running or done. */
  readonly batchStatus: Locator;
  /** The batch's bar: `data-done`, `data-total`, `data-revised`, `data-failed`. */
  readonly batchProgress: Locator;

  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {
    this.counts = page.getByTestId('pool-counts');
    this.list = page.getByTestId('proposal-list');
    this.proposals = this.list.getByTestId('proposal');
    this.addForm = page.getByTestId('add-seed-form');
    this.seedText = this.addForm.getByLabel('Seed text');
    this.seedType = this.addForm.getByLabel('Chart type');
    this.addedNotice = page.getByTestId('seed-added');
    this.reflectAllButton = page.getByRole('button', { name: /^Reflect on all with new feedback/ });
    this.batchStatus = page.getByTestId('reflection-batch-status');
    this.batchProgress = page.getByTestId('reflection-batch-progress');
  }

  async goto(query = ''): Promise<this> {
    await this.page.goto(`${this.baseUrl}/pool${query}`);
    await this.proposals.first().waitFor();
    return this;
  }

  /** A count cell of the per-type table, e.g. ('line', 'active'). */
  async count(chartType: string, status: string): Promise<number> {
    const cell = this.counts.locator(`tr[data-chart-type="${chartType}"] td[data-status="${status}"]`);
    return Number(((await cell.textContent()) ?? '').trim());
  }

  async countedTypes(): Promise<string[]> {
    return this.counts.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-chart-type') ?? ''));
  }

  proposal(id: number): Locator {
    return this.list.locator(`[data-proposal-id="${id}"]`);
  }

  proposalWithText(text: string): Locator {
    return this.proposals.filter({ has: this.page.getByTestId('proposal-text').getByText(text, { exact: true }) });
  }

  /** Types a seed and presses Enter, which adds it. Does not wait for the outcome. */
  async addSeed(chartType: string, text: string): Promise<void> {
    await this.seedType.selectOption(chartType);
    await this.seedText.fill(text);
    await this.seedText.press('Enter');
  }

  /** The message shown under a field (by its label), or null. */
  async fieldError(field: Locator): Promise<string | null> {
    const id = await field.getAttribute('aria-describedby');
    if (!id) return null;
    return (await this.page.locator(`[id="${id}"]`).textContent())?.trim() ?? null;
  }

  /** A figure of the batch's progress bar, e.g. 'done' or 'revised'. */
  async batchFigure(name: 'done' | 'total' | 'revised' | 'failed'): Promise<number> {
    return Number(await this.batchProgress.getAttribute(`data-${name}`));
  }

  async proposalIds(): Promise<number[]> {
    return this.proposals.evaluateAll((cards) => cards.map((card) => Number(card.getAttribute('data-proposal-id'))));
  }
}
