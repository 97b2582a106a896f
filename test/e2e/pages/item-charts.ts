import type { Locator, Page } from 'playwright-core';

/**
 * An item's charts as Review, the Item page and Adjudication show them (views/item-charts.tsx):
 * the original image, the counterfactual chart, the data table, and the zoom dialog a click
 * on a chart opens.
 */
export class ItemCharts {
  readonly originalImage: Locator;
  readonly counterfactualChart: Locator;
  readonly table: Locator;
  readonly enlargeOriginal: Locator;
  readonly enlargeCounterfactual: Locator;
  readonly zoom: Locator;

  constructor(
    readonly page: Page,
    readonly root: Locator,
  ) {
    const charts = root.getByTestId('item-charts');
    this.originalImage = charts.getByTestId('review-original-image');
    this.counterfactualChart = charts.getByTestId('counterfactual-chart');
    // The plain table, or the edited one with the edit's cells marked.
    this.table = root.locator('.item-charts-table').locator('[data-testid="data-table"], [data-testid="tryit-table"]');
    this.enlargeOriginal = charts.getByRole('button', { name: /^Enlarge Original chart/ });
    this.enlargeCounterfactual = charts.getByRole('button', { name: /^Enlarge Counterfactual chart/ });
    this.zoom = page.getByRole('dialog');
  }

  /** Waits for the image to load and the counterfactual chart to be drawn. */
  async drawn(): Promise<void> {
    await this.originalImage.waitFor();
    await this.page.waitForFunction((img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0, await this.originalImage.elementHandle());
    await this.root.locator('[data-testid="item-charts"] [data-testid="counterfactual-chart"][data-state="drawn"]').waitFor();
  }

  /** The table shown beside the enlarged chart. */
  zoomTable(): Locator {
    return this.zoom.locator('.chart-zoom-table').locator('[data-testid="data-table"], [data-testid="tryit-table"]');
  }
}
