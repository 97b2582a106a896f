import type { Locator, Page } from 'playwright-core';

/** The reviewer's screen at /review: one item, its context, the review form, all on keys. */
export class ReviewPage {
  readonly workspace: Locator;
  readonly question: Locator;
  readonly counterfactualChart: Locator;
  readonly originalImage: Locator;
  readonly feedback: Locator;
  readonly correctedAnswer: Locator;
  readonly errors: Locator;
  readonly undoToast: Locator;
  readonly draftRestored: Locator;
  readonly empty: Locator;
  readonly keysOverlay: Locator;
  readonly queueCounts: Locator;
  readonly leaseExpired: Locator;
  readonly decidedElsewhere: Locator;
  readonly notice: Locator;
  readonly acceptConfirm: Locator;
  readonly guidelines: Locator;
  readonly chartsZoom: Locator;
  readonly chartFlip: Locator;
  readonly acceptButton: Locator;

  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {
    this.workspace = page.getByTestId('review-workspace');
    this.question = page.getByTestId('review-question');
    this.counterfactualChart = page.getByTestId('counterfactual-chart');
    this.originalImage = page.getByTestId('review-original-image');
    this.feedback = page.getByLabel(/^Feedback/);
    this.correctedAnswer = page.getByLabel(/^Corrected answer/);
    this.errors = page.getByTestId('review-errors');
    this.undoToast = page.getByTestId('undo-toast');
    this.draftRestored = page.getByTestId('draft-restored');
    this.empty = page.getByTestId('review-empty');
    this.keysOverlay = page.getByTestId('review-keys-overlay');
    this.queueCounts = page.getByTestId('queue-counts');
    this.leaseExpired = page.getByTestId('lease-expired');
    this.decidedElsewhere = page.getByTestId('decided-elsewhere');
    this.notice = page.getByTestId('review-notice');
    this.acceptConfirm = page.getByTestId('accept-confirm');
    this.guidelines = page.getByTestId('review-guidelines');
    this.chartsZoom = page.getByTestId('charts-zoom');
    // The counterfactual's place on the page (not in the enlarged view): data-shown says which chart it holds.
    this.chartFlip = page.getByTestId('chart-flip');
    this.acceptButton = page.getByRole('button', { name: 'Accept a', exact: true });
  }

  async goto(): Promise<this> {
    await this.page.goto(`${this.baseUrl}/review`);
    await this.page.getByRole('heading', { level: 1, name: 'Review' }).waitFor();
    return this;
  }

  /** The id of the item on screen, once one is. */
  async shownItemId(): Promise<number> {
    await this.workspace.waitFor();
    return Number(await this.workspace.getAttribute('data-item-id'));
  }

  /** Waits until an item other than `previous` is on screen and returns its id. */
  async waitForItemOtherThan(previous: number): Promise<number> {
    await this.page.locator(`[data-testid="review-workspace"]:not([data-item-id="${previous}"])`).waitFor();
    return this.shownItemId();
  }

  async waitForItem(id: number): Promise<void> {
    await this.page.locator(`[data-testid="review-workspace"][data-item-id="${id}"]`).waitFor();
  }

  /** A criterion's toggle (a switch: aria-checked true = pass). */
  criterion(name: 'Rationality' | 'Answer correctness' | 'Layout consistency'): Locator {
    return this.page.getByRole('switch', { name: new RegExp(name) });
  }

  async criterionPasses(name: 'Rationality' | 'Answer correctness' | 'Layout consistency'): Promise<boolean> {
    return (await this.criterion(name).getAttribute('aria-checked')) === 'true';
  }

  /** What has the keyboard focus: 'BODY', or the tag and accessible label of the focused element. */
  async focused(): Promise<string> {
    return this.page.evaluate(() => {
      const active = document.activeElement;
      if (!active || active === document.body) return 'BODY';
      return `${active.tagName} ${active.getAttribute('aria-label') ?? active.id}`;
    });
  }

  /** Presses keys one after another, as a reviewer would. */
  async press(...keys: string[]): Promise<void> {
    for (const key of keys) await this.page.keyboard.press(key);
  }

  async type(text: string): Promise<void> {
    await this.page.keyboard.type(text);
  }

  /** Waits for the counterfactual chart to be drawn (or to fail) and says which. */
  async counterfactualState(): Promise<string | null> {
    await this.page.locator('[data-testid="counterfactual-chart"]:not([data-state="drawing"])').waitFor();
    return this.counterfactualChart.getAttribute('data-state');
  }
}
