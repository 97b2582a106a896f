import type { Locator, Page } from 'playwright-core';

/** The curators' landing page at /overview: four figures, each linked to where its work is done. */
export class OverviewPage {
  readonly heading: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Overview' });
  }

  figure(name: 'queue' | 'pass-rate' | 'runs' | 'adjudication'): Locator {
    return this.page.getByTestId(`overview-${name}`);
  }

  /** The figure's headline value as shown. */
  value(name: 'queue' | 'pass-rate' | 'runs' | 'adjudication'): Locator {
    return this.page.getByTestId(`overview-${name}-value`);
  }
}
