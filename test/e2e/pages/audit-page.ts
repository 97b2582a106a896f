import type { Locator, Page } from 'playwright-core';

/** The admin's audit log page. */
export class AuditPage {
  readonly table: Locator;
  readonly actionFilter: Locator;
  readonly exportLink: Locator;

  constructor(readonly page: Page) {
    this.table = page.getByTestId('audit-table');
    this.actionFilter = page.getByRole('search').getByLabel('Action', { exact: true });
    this.exportLink = page.getByRole('link', { name: 'Export JSON lines' });
  }

  rows(): Locator {
    return this.table.locator('tbody tr');
  }

  /** The `data-action` of every row shown. */
  async actions(): Promise<string[]> {
    return this.rows().evaluateAll((rows) => rows.map((row) => row.getAttribute('data-action') ?? ''));
  }
}
