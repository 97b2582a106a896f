import type { Locator, Page } from 'playwright-core';

/** The New group form on the Charts list, and a chart group's page at /charts/groups/:id. */
export class NewGroupForm {
  readonly form: Locator;
  readonly charts: Locator;
  readonly name: Locator;
  readonly create: Locator;

  constructor(readonly page: Page) {
    this.form = page.getByTestId('new-group');
    this.charts = page.getByTestId('new-group-charts').locator('li');
    this.name = this.form.getByLabel('Group name');
    this.create = this.form.getByRole('button', { name: 'Create group' });
  }

  /** The box that checks the chart of this imgname for a group. */
  checkbox(imgname: string): Locator {
    return this.page.getByRole('checkbox', { name: `Check ${imgname} for a group` });
  }
}

export class ChartGroupPage {
  readonly heading: Locator;
  readonly charts: Locator;
  readonly questions: Locator;
  readonly query: Locator;
  readonly label: Locator;
  readonly addQuestion: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1 });
    this.charts = page.getByTestId('group-chart');
    this.questions = page.getByTestId('group-questions').locator('tbody tr');
    const form = page.getByTestId('add-group-question');
    this.query = form.getByLabel('Question');
    this.label = form.getByLabel('Answer');
    this.addQuestion = form.getByRole('button', { name: 'Add question' });
  }
}
