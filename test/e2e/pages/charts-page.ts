import type { Locator, Page } from 'playwright-core';

/** The paginated charts list at /charts. */
export class ChartsPage {
  readonly search: Locator;
  readonly table: Locator;
  readonly rows: Locator;
  readonly pagerRange: Locator;
  readonly nextPage: Locator;

  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {
    this.search = page.getByRole('searchbox', { name: 'Search' });
    this.table = page.getByTestId('chart-list');
    this.rows = this.table.locator('tbody tr');
    this.pagerRange = page.getByTestId('pager-range');
    this.nextPage = page.getByRole('button', { name: /Next/ });
  }

  async goto(query = ''): Promise<this> {
    await this.page.goto(`${this.baseUrl}/charts${query}`);
    await this.waitForRows();
    return this;
  }

  async waitForRows(): Promise<void> {
    await this.rows.first().waitFor();
  }

  async imgnames(): Promise<string[]> {
    return this.rows.locator('td:first-child').allTextContents();
  }

  /** Opens the row at `index` by clicking it; returns the chart's imgname. */
  async openRow(index: number): Promise<string> {
    const row = this.rows.nth(index);
    const imgname = (await row.locator('td:first-child').textContent()) ?? '';
    await row.locator('td').nth(1).click();
    await this.page.waitForURL(/\/charts\/\d+$/);
    return imgname.trim();
  }

  async filterByType(label: string): Promise<void> {
    const select = this.page.getByLabel('Chart type');
    const value = await select.locator('option', { hasText: label }).first().getAttribute('value');
    await select.selectOption(value ?? '');
    await this.page.waitForURL(/type=/);
  }
}
