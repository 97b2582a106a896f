import type { Locator, Page } from 'playwright-core';

export interface ItemFields {
  qaId?: number;
  assumption: string;
  question: string;
  answer: string;
  answerType?: string;
  rationale: string;
  edit: string;
  program: string;
}

/** The "Write an item" form on a chart's page and the verdict it shows after saving. */
export class WriteItemForm {
  readonly root: Locator;
  readonly result: Locator;
  readonly recomputed: Locator;
  readonly matchText: Locator;
  readonly itemLink: Locator;
  /** What the verifier found: whether the assumption changes the factual answer. */
  readonly affects: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('write-item-form');
    this.result = page.getByTestId('write-item-result');
    this.recomputed = this.result.getByTestId('recomputed-answer');
    this.matchText = this.result.getByTestId('verifier-match-text');
    this.itemLink = this.result.getByRole('link', { name: /^item #\d+$/ });
    this.affects = this.result.getByTestId('write-item-affects');
  }

  field(label: string): Locator {
    return this.root.getByLabel(label, { exact: true });
  }

  async fill(fields: ItemFields): Promise<void> {
    if (fields.qaId !== undefined) await this.field('Factual question').selectOption(String(fields.qaId));
    await this.field('Assumption').fill(fields.assumption);
    await this.field('Question').fill(fields.question);
    await this.field('Answer').fill(fields.answer);
    if (fields.answerType) await this.field('Answer type').selectOption(fields.answerType);
    await this.field('Rationale').fill(fields.rationale);
    await this.field('Edit (JSON, optional)').fill(fields.edit);
    await this.field('Program').fill(fields.program);
  }

  /** Enter in a one-line field submits the form. */
  async submitWithEnter(): Promise<void> {
    await this.field('Answer').press('Enter');
  }

  /** The error shown under a field, or null. */
  async fieldError(label: string): Promise<string | null> {
    const id = await this.field(label).getAttribute('aria-describedby');
    if (!id) return null;
    return (await this.page.locator(`[id="${id}"]`).textContent())?.trim() ?? null;
  }
}
