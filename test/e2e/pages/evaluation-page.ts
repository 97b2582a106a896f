import type { Locator, Page } from 'playwright-core';
import { UI_TIMEOUT_MS } from '../browser';

/** The message shown for a form control's error (tied to it by aria-describedby), or null without one. */
async function errorOf(page: Page, control: Locator): Promise<string | null> {
  const id = await control.getAttribute('aria-describedby');
  return id ? page.locator(`[id="${id}"]`).textContent() : null;
}

/** The lines naming the run a form started or imported. */
const START_RESULT = 'start-eval-result';
const IMPORT_RESULT = 'import-eval-result';

/** /evaluation: the export, the start and import forms, the runs list and the comparison. */
export class EvaluationPage {
  readonly startForm: Locator;
  readonly engine: Locator;
  readonly engineNote: Locator;
  readonly startResult: Locator;
  readonly importForm: Locator;
  readonly importFile: Locator;
  readonly importModel: Locator;
  readonly importResult: Locator;
  readonly runList: Locator;
  readonly accuracyTable: Locator;
  readonly answerTypeTable: Locator;
  readonly answerTypeChart: Locator;
  /** What the factual baseline's figures mean, under the comparison tables. */
  readonly baselineNote: Locator;
  /** The export's download link, shown only when the export would hold items. */
  readonly exportDownload: Locator;
  /** Why there is nothing to export, shown in place of the download. */
  readonly exportRefusal: Locator;

  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {
    this.startForm = page.getByTestId('start-eval-form');
    this.engine = this.startForm.getByLabel('Engine', { exact: true });
    this.engineNote = page.getByTestId('eval-engine-note');
    this.startResult = page.getByTestId(START_RESULT);
    this.importForm = page.getByTestId('import-eval-form');
    this.importFile = this.importForm.getByLabel('Predictions file (hqa eval output)');
    this.importModel = this.importForm.getByLabel('Model name');
    this.importResult = page.getByTestId(IMPORT_RESULT);
    this.runList = page.getByTestId('eval-run-list');
    this.accuracyTable = page.getByTestId('comparison-accuracy');
    this.answerTypeTable = page.getByTestId('comparison-answer-types');
    this.answerTypeChart = page.getByTestId('answer-type-chart');
    this.baselineNote = page.getByTestId('factual-baseline-note');
    this.exportDownload = page.getByTestId('export-download');
    this.exportRefusal = page.getByTestId('export-refusal');
  }

  async goto(): Promise<this> {
    await this.page.goto(`${this.baseUrl}/evaluation`);
    await this.page.getByRole('heading', { level: 1, name: 'Evaluation' }).waitFor();
    return this;
  }

  /** Starts a factual-baseline run of the given conditions (by their labels, the others unticked) and returns the new run's id. */
  async startBaselineRun(...conditionLabels: string[]): Promise<number> {
    await this.engine.selectOption('factual-baseline');
    const boxes = this.startForm.getByTestId('eval-conditions-field').getByRole('checkbox');
    for (const box of await boxes.all()) {
      const label = (await box.locator('xpath=..').textContent())?.trim() ?? '';
      await box.setChecked(conditionLabels.includes(label));
    }
    const before = await this.startResult.count().then((n) => (n > 0 ? this.startResult.textContent() : null));
    await this.startForm.getByRole('button', { name: 'Start run' }).click();
    // The result line names the run; wait for a new one when a run was started before.
    const text = await this.waitForText(START_RESULT, before);
    return idIn(text);
  }

  /** Chooses a predictions file; the form reads it at once. */
  async choosePredictions(path: string): Promise<void> {
    await this.importFile.setInputFiles(path);
  }

  async submitImport(model: string): Promise<void> {
    await this.importModel.fill(model);
    await this.importForm.getByRole('button', { name: 'Import' }).click();
  }

  /** The error under a start-form field, by its label. */
  async startFieldError(label: string): Promise<string | null> {
    return errorOf(this.page, this.startForm.getByLabel(label, { exact: true }));
  }

  async importFileError(): Promise<string | null> {
    return errorOf(this.page, this.importFile);
  }

  /** The id of the run the last import created. */
  async importedRunId(): Promise<number> {
    return idIn(await this.waitForText(IMPORT_RESULT, null));
  }

  runRow(id: number): Locator {
    return this.runList.locator(`tr[data-eval-run-id="${id}"]`);
  }

  async runStatus(id: number): Promise<string> {
    return ((await this.runRow(id).getByTestId('eval-status').textContent()) ?? '').trim();
  }

  /** A cell of the accuracy table (`qa`, `hqa`, `decline`, `bias`, `left-out`, `no-image`) for one model. */
  accuracyCell(model: string, column: string): Locator {
    return this.accuracyTable.locator(`tr[data-model="${model}"] td[data-col="${column}"]`);
  }

  answerTypeRow(model: string): Locator {
    return this.answerTypeTable.locator(`tr[data-model="${model}"]`);
  }

  /**
   * The text of the element with `testId` once it shows one other than `notEqual`. Looked up
   * afresh each time: a result line is unmounted while its form's request is pending.
   */
  private async waitForText(testId: string, notEqual: string | null): Promise<string> {
    const shown = await this.page.waitForFunction(
      ({ testId, notEqual }) => {
        const text = document.querySelector(`[data-testid="${testId}"]`)?.textContent ?? null;
        return text !== null && text !== notEqual ? text : null;
      },
      { testId, notEqual },
      { timeout: UI_TIMEOUT_MS },
    );
    return (await shown.jsonValue()) ?? '';
  }
}

function idIn(text: string): number {
  const match = /#(\d+)/.exec(text);
  if (!match?.[1]) throw new Error(`no run id in "${text}"`);
  return Number(match[1]);
}

/** /evaluation/runs/:id: the run's score and its questions. */
export class EvalRunPage {
  readonly heading: Locator;
  readonly status: Locator;
  readonly accuracy: Locator;
  readonly results: Locator;
  readonly resultRows: Locator;
  readonly outcome: Locator;
  readonly answerType: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1 });
    this.status = this.heading.getByTestId('eval-status');
    this.accuracy = page.getByTestId('score-accuracy');
    this.results = page.getByTestId('eval-results');
    this.resultRows = this.results.locator('tbody tr[data-result-id]');
    this.outcome = page.getByLabel('Outcome', { exact: true });
    this.answerType = page.getByLabel('Answer type', { exact: true });
  }

  async waitForLoad(): Promise<this> {
    await this.status.waitFor();
    return this;
  }

  /** The export ids of the question rows on this page, in order. */
  async resultIds(): Promise<string[]> {
    return this.resultRows.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-result-id') ?? ''));
  }

  resultRow(id: string): Locator {
    return this.results.locator(`tbody tr[data-result-id="${id}"]`);
  }

  /** The expanded detail under a question row. */
  detailOf(id: string): Locator {
    return this.resultRow(id).locator('xpath=following-sibling::tr[1]').getByTestId('result-detail');
  }
}
