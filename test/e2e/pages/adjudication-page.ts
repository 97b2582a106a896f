import type { Locator, Page } from 'playwright-core';

/** Items needing adjudication at /adjudication, each with its reviews and a decision form. */
export class AdjudicationPage {
  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {}

  async goto(): Promise<this> {
    await this.page.goto(`${this.baseUrl}/adjudication`);
    await this.page.getByRole('heading', { level: 1, name: 'Adjudication' }).waitFor();
    return this;
  }

  case(itemId: number): Locator {
    return this.page.locator(`[data-testid="adjudication-case"][data-item-id="${itemId}"]`);
  }

  /** The reviewers' names shown on a case, in order. */
  async reviewers(itemId: number): Promise<string[]> {
    return this.case(itemId).locator('.review-record-head strong').allTextContents();
  }

  async decide(itemId: number, decision: 'Accept' | 'Reject', change: { finalAnswer?: string; note?: string } = {}): Promise<void> {
    const form = this.case(itemId);
    if (change.finalAnswer !== undefined) await form.getByLabel('Final answer (optional)').fill(change.finalAnswer);
    if (change.note !== undefined) await form.getByLabel('Note').fill(change.note);
    await form.getByRole('button', { name: decision, exact: true }).click();
  }
}
