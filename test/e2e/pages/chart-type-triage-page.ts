import type { Locator, Page } from 'playwright-core';

/** The chart-type triage (Charts → Chart types): the chart shown, its suggested type, the type keys and the counts. */
export class ChartTypeTriagePage {
  readonly chart: Locator;
  readonly image: Locator;
  readonly suggested: Locator;
  readonly unconfirmed: Locator;
  readonly confirmed: Locator;
  readonly decidedHere: Locator;
  readonly last: Locator;
  readonly empty: Locator;
  readonly visionButton: Locator;

  constructor(readonly page: Page) {
    this.chart = page.getByTestId('triage-chart');
    this.image = this.chart.getByRole('img');
    this.suggested = page.getByTestId('triage-suggested');
    this.unconfirmed = page.getByTestId('count-unconfirmed');
    this.confirmed = page.getByTestId('count-confirmed');
    this.decidedHere = page.getByTestId('count-session');
    this.last = page.getByTestId('triage-last');
    this.empty = page.getByTestId('triage-empty');
    this.visionButton = page.getByRole('button', { name: /^Ask the vision model \(/ });
  }

  async goto(baseUrl: string, split: string): Promise<this> {
    await this.page.goto(`${baseUrl}/charts/types?split=${split}`);
    await this.chart.waitFor();
    return this;
  }

  /** The id of the chart shown. */
  async chartId(): Promise<number> {
    return Number(await this.chart.getAttribute('data-chart-id'));
  }

  /** A key press on the page itself (no field focused), as a curator triaging by keyboard makes it. */
  async press(key: string): Promise<void> {
    await this.page.keyboard.press(key);
  }

  typeKey(type: string): Locator {
    return this.page.getByTestId(`type-key-${type}`);
  }
}
