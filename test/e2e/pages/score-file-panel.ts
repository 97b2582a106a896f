import type { Locator, Page } from 'playwright-core';

/** The Evaluation page's "Score a file" panel: format, rule, the two files, and the report. */
export class ScoreFilePanel {
  readonly panel: Locator;
  readonly format: Locator;
  readonly rule: Locator;
  readonly dataset: Locator;
  readonly predictions: Locator;
  readonly scoreButton: Locator;
  readonly report: Locator;

  constructor(readonly page: Page) {
    this.panel = page.getByTestId('score-file-panel');
    this.format = this.panel.getByLabel('Format', { exact: true });
    this.rule = this.panel.getByLabel('Scoring rule for numbers');
    this.dataset = this.panel.getByLabel('Dataset file');
    this.predictions = this.panel.getByLabel('Predictions file');
    this.scoreButton = this.panel.getByRole('button', { name: 'Score' });
    this.report = this.panel.getByTestId('score-report');
  }

  /** A figure's shown value by its label ("Acc+" → "0.00 %"), without its note. */
  async figure(label: string): Promise<string> {
    const figure = this.report.getByTestId('score-figure').filter({ has: this.page.locator('dt', { hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }) });
    const text = (await figure.locator('dd').textContent()) ?? '';
    const note = (await figure.locator('dd .small').textContent()) ?? '';
    return text.slice(0, text.length - note.length).trim();
  }

  /** The message shown for a control's error (tied to it by aria-describedby), or null. */
  async errorOf(control: Locator): Promise<string | null> {
    const ids = (await control.getAttribute('aria-describedby'))?.split(' ') ?? [];
    const errorId = ids.find((id) => id.endsWith('-error'));
    return errorId ? this.page.locator(`[id="${errorId}"]`).textContent() : null;
  }
}
