import type { Locator, Page } from 'playwright-core';

/** One run's live view at /runs/:id. */
export class RunPage {
  readonly heading: Locator;
  readonly status: Locator;
  readonly progress: Locator;
  readonly engine: Locator;
  readonly offlineNote: Locator;
  readonly itemsCreated: Locator;
  readonly itemsFailed: Locator;
  /** Stage 2 tasks declined (by the model, or by the server with no request): apart from failures. */
  readonly itemsDeclined: Locator;
  /** The declined tasks with who declined and why, shown when there are any. */
  readonly declineRows: Locator;
  /** The failed tasks' rows (Errors); expected refusals are never among them. */
  readonly errorRows: Locator;
  readonly proposalsCreated: Locator;
  readonly items: Locator;
  readonly itemRows: Locator;
  /** A batch run's batch step ("batch in progress 0 of 1"), with its state in data-state. */
  readonly batchStep: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1 });
    this.status = this.heading.getByTestId('run-status');
    this.progress = page.getByRole('progressbar');
    this.engine = page.locator('.run-config').getByTestId('run-engine');
    this.offlineNote = page.getByTestId('offline-note');
    this.itemsCreated = page.getByTestId('items-created');
    this.itemsFailed = page.getByTestId('items-failed');
    this.itemsDeclined = page.getByTestId('items-declined');
    this.declineRows = page.getByTestId('run-declines').locator('tbody tr');
    this.errorRows = page.getByTestId('run-errors').locator('tbody tr');
    this.proposalsCreated = page.getByTestId('proposals-created');
    this.items = page.getByTestId('item-list');
    this.itemRows = this.items.locator('tbody tr');
    this.batchStep = page.getByTestId('run-batch-progress');
  }

  /** The run id from the URL. */
  runId(): number {
    const match = /\/runs\/(\d+)/.exec(this.page.url());
    if (!match?.[1]) throw new Error(`not on a run page: ${this.page.url()}`);
    return Number(match[1]);
  }

  async statusText(): Promise<string> {
    return ((await this.status.textContent()) ?? '').trim();
  }

  /** Finished tasks and the total as the progress bar states them. */
  async progressValues(): Promise<{ now: number; max: number; done: number; failed: number }> {
    const read = async (name: string) => Number(await this.progress.getAttribute(name));
    return {
      now: await read('aria-valuenow'),
      max: await read('aria-valuemax'),
      done: await read('data-done'),
      failed: await read('data-failed'),
    };
  }

  async figure(locator: Locator): Promise<number> {
    return Number(((await locator.textContent()) ?? '').trim());
  }
}
