import type { Locator } from 'playwright-core';

/** The "Extract tables (N charts)" control of a split row or the Charts page, with its confirmation and progress panel. */
export class ExtractTablesPanel {
  readonly button: Locator;
  readonly confirmation: Locator;
  readonly progress: Locator;
  readonly status: Locator;
  readonly bar: Locator;

  constructor(readonly scope: Locator) {
    this.button = scope.getByRole('button', { name: /^Extract tables \(/ });
    this.confirmation = scope.getByRole('alertdialog', { name: 'Extract tables?' });
    this.progress = scope.getByTestId('extraction-progress');
    this.status = this.progress.getByTestId('extraction-status');
    this.bar = this.progress.getByTestId('run-progress');
  }

  /** Opens the confirmation and returns its text, then confirms with its own button. */
  async start(): Promise<string> {
    await this.button.click();
    const text = (await this.confirmation.textContent()) ?? '';
    await this.confirmation.getByRole('button', { name: /^Extract \d+ tables?$/ }).click();
    return text;
  }
}
