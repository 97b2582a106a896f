import type { Locator, Page } from 'playwright-core';

/** The Pool page's Analytics tab at /pool/analytics: figures drawn by Vega in the browser. */
export class PoolAnalyticsPage {
  readonly growth: Locator;
  readonly byType: Locator;
  readonly byRound: Locator;
  readonly sunburst: Locator;
  readonly sunburstType: Locator;
  readonly distinctOperations: Locator;
  readonly operationTable: Locator;

  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {
    this.growth = page.getByTestId('pool-growth');
    this.byType = page.getByTestId('pass-rate-by-type');
    this.byRound = page.getByTestId('pass-rate-by-round');
    this.sunburst = page.getByTestId('operation-sunburst');
    this.sunburstType = page.getByLabel('Chart type', { exact: true });
    this.distinctOperations = page.getByTestId('distinct-operations');
    this.operationTable = page.getByTestId('operation-table');
  }

  async goto(): Promise<this> {
    await this.page.goto(`${this.baseUrl}/pool/analytics`);
    await this.growth.waitFor();
    return this;
  }

  /** Picks the sunburst's chart type and waits until that type's sunburst is drawn (or failed); says which. */
  async showSunburstOf(chartType: string): Promise<string | null> {
    await this.sunburstType.selectOption(chartType);
    const figure = this.page.locator(`[data-testid="sunburst"][data-chart-type="${chartType}"] [data-testid="operation-sunburst"]:not([data-state="drawing"])`);
    await figure.waitFor();
    return figure.getAttribute('data-state');
  }

  /** Waits for a figure (by its test id) to be drawn, or to fail, and says which. */
  async figureState(testId: string): Promise<string | null> {
    const figure = this.page.locator(`[data-testid="${testId}"]:not([data-state="drawing"])`);
    await figure.waitFor();
    return figure.getAttribute('data-state');
  }
}
