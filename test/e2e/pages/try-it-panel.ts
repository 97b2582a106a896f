import type { Locator, Page } from 'playwright-core';

/** A changed cell of the edited table: its row, its column, the old and the new text. */
export interface ChangedCell {
  row: string;
  series: string;
  before: string;
  after: string;
}

/** The "Try it" panel on a chart's page: edit and program fields, answer, edited table, lint. */
export class TryItPanel {
  readonly root: Locator;
  readonly editField: Locator;
  readonly programField: Locator;
  readonly answer: Locator;
  readonly answerType: Locator;
  readonly programError: Locator;
  readonly errorPosition: Locator;
  readonly caretSource: Locator;
  readonly caretMarker: Locator;
  readonly editError: Locator;
  readonly editedTable: Locator;
  readonly lint: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('try-it');
    this.editField = this.root.getByLabel('Edit (JSON)', { exact: true });
    this.programField = this.root.getByLabel('Program', { exact: true });
    this.answer = this.root.getByTestId('tryit-answer');
    this.answerType = this.root.getByTestId('tryit-answer-type');
    this.programError = this.root.getByTestId('tryit-program-error');
    this.errorPosition = this.root.getByTestId('tryit-error-position');
    this.caretSource = this.root.getByTestId('tryit-caret-source');
    this.caretMarker = this.root.getByTestId('tryit-caret-marker');
    this.editError = this.root.getByTestId('tryit-edit-error');
    this.editedTable = this.root.getByTestId('tryit-table');
    this.lint = this.root.getByTestId('tryit-lint');
  }

  async waitForLoad(): Promise<void> {
    await this.programField.waitFor();
  }

  /** Types like a person, key by key, so the debounce sees every keystroke. */
  async typeProgram(text: string): Promise<void> {
    await this.programField.fill('');
    await this.programField.pressSequentially(text);
  }

  async typeEdit(text: string): Promise<void> {
    await this.editField.fill('');
    await this.editField.pressSequentially(text);
  }

  async answerText(): Promise<string | null> {
    if ((await this.answer.count()) === 0) return null;
    return (await this.answer.textContent())?.trim() ?? null;
  }

  example(group: 'Edit examples' | 'Program examples', text: string): Locator {
    return this.root.getByRole('group', { name: group }).getByRole('button', { name: text, exact: true });
  }

  /** The highlighted cells of the edited table, read from the grid. */
  async changedCells(): Promise<ChangedCell[]> {
    return this.editedTable.evaluate((table) => {
      const headers = Array.from(table.querySelectorAll('thead th'), (th) => th.textContent?.trim() ?? '');
      return Array.from(table.querySelectorAll('td.cell-changed'), (cell) => {
        const row = cell.closest('tr');
        const column = row ? Array.from(row.children).indexOf(cell) : -1;
        const text = (selector: string) => {
          const node = cell.querySelector(selector)?.cloneNode(true);
          if (!(node instanceof Element)) return '';
          node.querySelectorAll('.sr-only').forEach((hidden) => hidden.remove());
          return node.textContent?.trim() ?? '';
        };
        return {
          row: row?.querySelector('th')?.textContent?.trim() ?? '',
          series: headers[column] ?? '',
          before: text('del'),
          after: text('ins'),
        };
      });
    });
  }

  /** Lint findings as shown: code, severity and message. */
  async findings(): Promise<{ code: string; severity: string; message: string }[]> {
    if ((await this.lint.count()) === 0) return [];
    return this.lint.locator('li').evaluateAll((items) =>
      items.map((item) => ({
        code: item.querySelector('.tryit-code')?.textContent?.trim() ?? '',
        severity: item.querySelector('.tryit-severity')?.textContent?.trim() ?? '',
        message: item.querySelector('.tryit-message')?.textContent?.trim() ?? '',
      })),
    );
  }
}
