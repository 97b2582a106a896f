import type { Locator, Page } from 'playwright-core';

/** One chart at /charts/:id: image, type, data table, factual questions. */
export class ChartPage {
  readonly heading: Locator;
  readonly image: Locator;
  readonly dataTable: Locator;
  readonly qaTable: Locator;
  readonly typeArea: Locator;
  readonly typeSelect: Locator;
  readonly typeSource: Locator;
  readonly typeError: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1 });
    this.image = page.getByTestId('chart-image');
    this.dataTable = page.getByTestId('data-table');
    this.qaTable = page.getByTestId('qa-table');
    this.typeArea = page.getByTestId('chart-type');
    this.typeSelect = page.getByLabel('Change type');
    this.typeSource = this.typeArea.getByTestId('type-source');
    this.typeError = page.getByTestId('chart-type-error');
  }

  async waitForLoad(): Promise<void> {
    await this.dataTable.waitFor();
  }

  /** The type as shown, e.g. "Pie curator". */
  async typeText(): Promise<string> {
    return ((await this.typeArea.locator('.type-badge').textContent()) ?? '').trim();
  }

  async currentTypeValue(): Promise<string> {
    return this.typeSelect.inputValue();
  }

  /** Picks a chart type (by option value) in the curator's select. */
  async changeType(value: string): Promise<void> {
    await this.typeSelect.selectOption(value);
  }

  async imageLoaded(): Promise<boolean> {
    await this.image.waitFor();
    return this.image.evaluate(async (node) => {
      if (!(node instanceof HTMLImageElement)) return false;
      await node.decode().catch(() => undefined);
      return node.complete && node.naturalWidth > 0;
    });
  }

  /** The data table's cells as text, row by row (header row first). */
  async tableCells(): Promise<string[][]> {
    return this.dataTable.locator('tr').evaluateAll((rows) =>
      rows.map((row) => Array.from(row.querySelectorAll('th, td'), (cell) => cell.textContent?.trim() ?? '')),
    );
  }
}
