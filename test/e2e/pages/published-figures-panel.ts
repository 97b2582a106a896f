import type { Locator, Page } from 'playwright-core';

/** The Evaluation page's "Published figures" section: the upload form, the uploaded tables, and the comparison beside the runs. */
export class PublishedFiguresPanel {
  readonly section: Locator;
  readonly uploadForm: Locator;
  readonly file: Locator;
  readonly source: Locator;
  readonly uploadButton: Locator;
  readonly fileSummary: Locator;
  readonly uploadResult: Locator;
  readonly tables: Locator;
  readonly accuracyTable: Locator;
  readonly answerTypeTable: Locator;
  readonly empty: Locator;

  constructor(readonly page: Page) {
    this.section = page.getByTestId('published-figures');
    this.uploadForm = this.section.getByTestId('published-upload-form');
    this.file = this.uploadForm.getByLabel('Table file (TSV)');
    this.source = this.uploadForm.getByLabel('Source', { exact: true });
    this.uploadButton = this.uploadForm.getByRole('button', { name: 'Upload' });
    this.fileSummary = this.uploadForm.getByTestId('published-file-summary');
    this.uploadResult = this.uploadForm.getByTestId('published-upload-result');
    this.tables = this.section.getByTestId('published-tables');
    this.accuracyTable = this.section.getByTestId('published-accuracy');
    this.answerTypeTable = this.section.getByTestId('published-answer-types');
    this.empty = this.section.getByText('No published table uploaded yet.');
  }

  /** The message shown for a control's error (tied to it by aria-describedby), or null. */
  async errorOf(control: Locator): Promise<string | null> {
    const ids = (await control.getAttribute('aria-describedby'))?.split(' ') ?? [];
    const errorId = ids.find((id) => id.endsWith('-error'));
    return errorId ? this.page.locator(`[id="${errorId}"]`).textContent() : null;
  }

  /** The comparison's rows of one origin (`published` or `evaluated`). */
  accuracyRows(origin?: 'published' | 'evaluated'): Locator {
    return this.accuracyTable.locator(origin ? `tbody tr[data-origin="${origin}"]` : 'tbody tr');
  }

  /** One row of the accuracy comparison by model (and params, which tell Qwen2.5-VL 7B from 72B). */
  accuracyRow(model: string, params?: string): Locator {
    return this.accuracyTable.locator(`tbody tr[data-model="${model}"]${params ? `[data-params="${params}"]` : ''}`);
  }

  /** The models of the accuracy comparison in the order shown, each with its Chart-HQA figure and origin. */
  async accuracyOrder(): Promise<{ model: string; origin: string; hqa: string }[]> {
    return this.accuracyRows().evaluateAll((rows) =>
      rows.map((row) => ({
        model: row.getAttribute('data-model') ?? '',
        origin: row.getAttribute('data-origin') ?? '',
        hqa: row.querySelector('td[data-col="hqa"]')?.textContent ?? '',
      })),
    );
  }

  tableRow(fileName: string): Locator {
    return this.tables.locator('tbody tr').filter({ has: this.page.locator('td', { hasText: fileName }) });
  }
}
