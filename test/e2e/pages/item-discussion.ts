import type { Locator, Page } from 'playwright-core';

/** The Item page's discussion thread and curator edits (/items/:id). */
export class ItemDiscussionPage {
  readonly thread: Locator;
  readonly comments: Locator;
  readonly history: Locator;
  readonly mentions: Locator;

  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {
    this.thread = page.getByTestId('item-thread');
    this.comments = this.thread.getByTestId('item-comment');
    this.history = page.getByTestId('item-edit-history');
    this.mentions = page.getByTestId('mention-notices');
  }

  async goto(itemId: number): Promise<this> {
    await this.page.goto(`${this.baseUrl}/items/${itemId}`);
    // The thread has loaded once it shows its comments or says it has none.
    await this.thread.locator('.comment-list, .no-comments').first().waitFor();
    return this;
  }

  /** Types a comment and posts it with Ctrl+Enter, as people who work from the keyboard do. */
  async comment(text: string): Promise<void> {
    const field = this.thread.getByRole('textbox');
    await field.fill(text);
    await field.press('Control+Enter');
    await this.comments.filter({ hasText: text }).waitFor();
  }

  /** A curator's edit of the answer, with its reason. */
  async editAnswer(answer: string, reason: string): Promise<void> {
    await this.page.getByRole('button', { name: 'Edit assumption, question or answer' }).click();
    const form = this.page.getByTestId('item-edit-form');
    await form.getByLabel('Answer').fill(answer);
    await form.getByLabel('Why (kept with the edit)').fill(reason);
    await form.getByRole('button', { name: 'Save edit' }).click();
    await form.waitFor({ state: 'detached' });
  }
}
