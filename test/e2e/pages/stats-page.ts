import type { Locator, Page } from 'playwright-core';

/** The Stats page at /stats; for curators, the human / machine / HAI comparison and the coverage map. */
export class StatsPage {
  readonly ablationTable: Locator;
  readonly hourlyRate: Locator;
  readonly unitCosts: Locator;
  readonly coverageHeat: Locator;
  readonly thinnest: Locator;

  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {
    this.ablationTable = page.getByTestId('ablation-table');
    this.hourlyRate = page.getByLabel('Reviewer hourly rate (USD)');
    this.unitCosts = this.ablationTable.getByTestId('unit-cost');
    this.coverageHeat = page.getByTestId('coverage-heat');
    this.thinnest = page.getByTestId('coverage-thinnest');
  }

  async goto(): Promise<this> {
    await this.page.goto(`${this.baseUrl}/stats`);
    await this.page.getByRole('heading', { level: 1, name: 'Stats' }).waitFor();
    return this;
  }

  /** The ablation row of a group ("Human", "Machine", "HAI", "HAI round 1"). */
  ablationRow(label: string): Locator {
    return this.ablationTable.locator('tbody tr').filter({ has: this.page.getByRole('rowheader', { name: new RegExp(`^${label}\\b`) }) });
  }
}
