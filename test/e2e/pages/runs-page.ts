import type { Locator, Page } from 'playwright-core';

export interface StartRunOptions {
  engine?: 'offline' | 'openai';
  /** Ticks the Batch box (openai engine only). */
  batch?: boolean;
  stage?: 'proposals' | 'items' | 'both';
  chartType?: string;
  items?: number;
  order?: 'stratified' | 'id';
  proposalBatches?: number;
  concurrency?: number;
  /** Ticks "Only charts whose type is confirmed". */
  confirmedTypesOnly?: boolean;
}

/** The runs list and the start form at /runs. */
export class RunsPage {
  readonly form: Locator;
  readonly engine: Locator;
  readonly engineNote: Locator;
  readonly list: Locator;

  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {
    this.form = page.getByTestId('start-run-form');
    this.engine = this.form.getByLabel('Engine', { exact: true });
    this.engineNote = page.getByTestId('engine-note');
    this.list = page.getByTestId('run-list');
  }

  async goto(): Promise<this> {
    await this.page.goto(`${this.baseUrl}/runs`);
    await this.page.getByRole('heading', { level: 1, name: 'Runs' }).waitFor();
    return this;
  }

  /** Fills the start form and presses Enter in the last number typed: Enter submits. */
  async startRun(options: StartRunOptions): Promise<void> {
    const form = this.form;
    if (options.engine) await this.engine.selectOption(options.engine);
    if (options.batch) await form.getByTestId('run-batch').check();
    if (options.stage) await form.getByLabel('Stage', { exact: true }).selectOption(options.stage);
    if (options.chartType) await form.getByLabel('Chart type', { exact: true }).selectOption(options.chartType);
    if (options.items !== undefined) await form.getByLabel('Items (factual QAs)').fill(String(options.items));
    if (options.order) await form.getByLabel('Which QAs').selectOption(options.order);
    if (options.confirmedTypesOnly) await form.getByRole('checkbox', { name: /^Only charts whose type is confirmed/ }).check();
    if (options.proposalBatches !== undefined) await form.getByLabel('Proposal batches per type').fill(String(options.proposalBatches));
    const concurrency = form.getByLabel('Concurrency', { exact: true });
    if (options.concurrency !== undefined) await concurrency.fill(String(options.concurrency));
    await concurrency.press('Enter');
  }

  runRow(id: number): Locator {
    return this.list.locator(`tr[data-run-id="${id}"]`);
  }
}
