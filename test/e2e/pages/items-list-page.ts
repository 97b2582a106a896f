import type { Locator, Page } from 'playwright-core';

/** The items table at /items: filters in the URL, rows by item id, checkboxes for bulk re-queue (curators). */
export class ItemsListPage {
  readonly list: Locator;
  readonly bulkBar: Locator;

  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {
    this.list = page.getByTestId('item-list');
    this.bulkBar = page.getByTestId('bulk-bar');
  }

  /** Opens the list with `search` (e.g. "status=pending") and waits for its rows. */
  async goto(search = ''): Promise<this> {
    await this.page.goto(`${this.baseUrl}/items${search ? `?${search}` : ''}`);
    await this.list.waitFor();
    return this;
  }

  row(itemId: number): Locator {
    return this.list.locator(`tr[data-item-id="${itemId}"]`);
  }

  async status(itemId: number): Promise<string> {
    return ((await this.row(itemId).locator('.status-tag').textContent()) ?? '').trim();
  }

  async select(itemId: number): Promise<void> {
    await this.page.getByLabel(`Select item #${itemId}`, { exact: true }).check();
  }

  async requeueSelected(): Promise<void> {
    await this.bulkBar.getByRole('button', { name: 'Re-queue…' }).click();
    await this.bulkBar.getByRole('button', { name: 'Confirm re-queue' }).click();
    await this.bulkBar.getByRole('status').waitFor();
  }
}
