import type { Locator, Page } from 'playwright-core';

/** Users and roles at /admin. */
export class AdminPage {
  readonly usersTable: Locator;
  readonly createdNotice: Locator;
  readonly generatedPassword: Locator;
  readonly settingsForm: Locator;
  readonly settingsNotice: Locator;
  readonly guidelinesForm: Locator;

  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {
    this.usersTable = page.getByTestId('users-table');
    this.createdNotice = page.getByTestId('user-created');
    this.generatedPassword = page.getByTestId('generated-password');
    this.settingsForm = page.locator('form.settings-form');
    this.settingsNotice = page.getByTestId('settings-notice');
    this.guidelinesForm = page.getByTestId('guidelines-form');
  }

  async goto(): Promise<this> {
    await this.page.goto(`${this.baseUrl}/admin`);
    await this.usersTable.waitFor();
    return this;
  }

  /** Writes one criterion's review guideline (Markdown) and saves the guidelines. */
  async saveGuideline(criterion: 'Rationality' | 'Answer correctness' | 'Layout consistency', markdown: string): Promise<void> {
    await this.guidelinesForm.getByLabel(`${criterion} guideline`).fill(markdown);
    await this.guidelinesForm.getByRole('button', { name: 'Save guidelines' }).click();
    await this.page.getByTestId('guidelines-notice').filter({ hasText: 'Guidelines saved' }).waitFor();
  }

  userRow(username: string): Locator {
    return this.usersTable.locator(`tr[data-username="${username}"]`);
  }

  roleSelect(username: string): Locator {
    return this.page.getByLabel(`Role of ${username}`, { exact: true });
  }

  /** The account cell of a user's row: Disable / Enable, Reset password, Revoke sessions, and their outcome. */
  userActions(username: string): Locator {
    return this.userRow(username).getByRole('group');
  }

  userStatus(username: string): Locator {
    return this.userRow(username).getByTestId('user-status');
  }

  userSessions(username: string): Locator {
    return this.userRow(username).getByTestId('user-sessions');
  }

  /** Clicks an account action of a user's and, for one that ends sessions, confirms it. */
  async accountAction(username: string, action: 'Disable' | 'Enable' | 'Reset password' | 'Revoke sessions'): Promise<void> {
    await this.userActions(username).getByRole('button', { name: action, exact: true }).click();
    if (action !== 'Enable') await this.userActions(username).getByRole('button', { name: 'Confirm' }).click();
  }

  /** Resets a user's password and returns the new one, shown once. */
  async resetPassword(username: string): Promise<string> {
    await this.accountAction(username, 'Reset password');
    const shown = this.userRow(username).getByTestId('reset-password');
    await shown.waitFor();
    return ((await shown.textContent()) ?? '').trim();
  }

  /** Adds a user; with no password the server generates one, which this returns. */
  async addUser(username: string, role: string, password?: string): Promise<string | undefined> {
    const form = this.page.locator('form.add-user');
    await form.getByLabel('Username').fill(username);
    await form.getByLabel('Role').selectOption(role);
    if (password !== undefined) await form.getByLabel(/^Password/).fill(password);
    await form.getByRole('button', { name: 'Add user' }).click();
    await this.createdNotice.waitFor();
    if (password !== undefined) return undefined;
    return ((await this.generatedPassword.textContent()) ?? '').trim();
  }

  /** A generation setting's input, by its label ("Generation model", "ROUGE-L duplicate threshold", …). */
  setting(label: string): Locator {
    return this.settingsForm.getByLabel(label, { exact: true });
  }

  /** The error shown under a setting, tied to its input by aria-describedby. */
  async settingError(label: string): Promise<string | null> {
    const input = this.setting(label);
    await this.page.waitForFunction(
      (el) => el?.getAttribute('aria-invalid') === 'true',
      await input.elementHandle(),
    );
    // A setting with a hint is described by the hint and the error.
    const errorId = (await input.getAttribute('aria-describedby'))?.split(' ').find((id) => id.endsWith('-error'));
    return errorId ? this.page.locator(`[id="${errorId}"]`).textContent() : null;
  }

  async saveSettings(): Promise<void> {
    await this.settingsForm.getByRole('button', { name: 'Save settings' }).click();
  }
}
