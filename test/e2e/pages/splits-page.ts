import type { Locator, Page } from 'playwright-core';

/** Import a split from a .zip and manage splits, at /splits. */
export class SplitsPage {
  readonly fileInput: Locator;
  readonly format: Locator;
  readonly importButton: Locator;
  readonly progress: Locator;
  readonly report: Locator;
  readonly warnings: Locator;
  readonly refusal: Locator;
  readonly splitsTable: Locator;
  readonly splitName: Locator;
  /** What the Split name field does (and does not do), under it. */
  readonly splitNameHint: Locator;

  constructor(readonly page: Page) {
    this.fileInput = page.getByTestId('import-file');
    this.format = page.getByLabel('Format');
    this.importButton = page.getByRole('button', { name: 'Import', exact: true });
    this.progress = page.getByTestId('import-progress');
    this.report = page.getByTestId('import-report');
    this.warnings = page.getByTestId('import-warning');
    this.refusal = page.getByRole('alert');
    this.splitsTable = page.getByTestId('splits-table');
    this.splitName = page.getByLabel('Split name (optional)');
    this.splitNameHint = page.getByTestId('import-split-hint');
  }

  /** Picks the zip as a person would (the file chooser's result), then presses Import. */
  async upload(name: string, zip: Buffer): Promise<void> {
    await this.fileInput.setInputFiles({ name, mimeType: 'application/zip', buffer: zip });
    await this.importButton.click();
  }

  row(split: string): Locator {
    return this.splitsTable.locator(`tr[data-split="${split}"]`);
  }

  async rename(split: string, label: string): Promise<void> {
    await this.page.getByRole('button', { name: `Rename ${split}` }).click();
    const input = this.page.getByLabel(`New name for ${split}`);
    await input.fill(label);
    await input.press('Enter');
  }

  /** Delete, then the confirmation's own button; returns the confirmation's text. */
  async delete(split: string): Promise<string> {
    await this.row(split).getByRole('button', { name: 'Delete', exact: true }).click();
    const confirmation = this.page.getByRole('alertdialog', { name: `Delete ${split}?` });
    const text = (await confirmation.textContent()) ?? '';
    await confirmation.getByRole('button', { name: 'Delete split' }).click();
    return text;
  }

  /** Archive, then the confirmation's own button; returns the confirmation's text. */
  async archive(split: string): Promise<string> {
    await this.row(split).getByRole('button', { name: 'Archive', exact: true }).click();
    const confirmation = this.page.getByRole('alertdialog', { name: `Archive ${split}?` });
    const text = (await confirmation.textContent()) ?? '';
    await confirmation.getByRole('button', { name: 'Archive split' }).click();
    return text;
  }
}
