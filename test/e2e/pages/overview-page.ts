import type { Locator, Page } from 'playwright-core';

/** The curators' landing page at /overview: the loop's next step until there is a dataset, and four figures, each linked to where its work is done. */
export class OverviewPage {
  readonly heading: Locator;
  /** The loop's steps (import → run → review → export), with the next one in `data-next`. */
  readonly nextSteps: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Overview' });
    this.nextSteps = page.getByTestId('next-steps');
  }

  step(key: 'import' | 'run' | 'review' | 'export'): Locator {
    return this.nextSteps.locator(`li[data-step="${key}"]`);
  }

  figure(name: 'queue' | 'pass-rate' | 'runs' | 'adjudication'): Locator {
    return this.page.getByTestId(`overview-${name}`);
  }

  /** The figure's headline value as shown. */
  value(name: 'queue' | 'pass-rate' | 'runs' | 'adjudication'): Locator {
    return this.page.getByTestId(`overview-${name}-value`);
  }
}
