import type { Locator, Page } from 'playwright-core';

/** Users and roles at /admin. */
export class AdminPage {
  readonly usersTable: Locator;
  readonly createdNotice: Locator;
  readonly generatedPassword: Locator;

  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {
    this.usersTable = page.getByTestId('users-table');
    this.createdNotice = page.getByTestId('user-created');
    this.generatedPassword = page.getByTestId('generated-password');
  }

  async goto(): Promise<this> {
    await this.page.goto(`${this.baseUrl}/admin`);
    await this.usersTable.waitFor();
    return this;
  }

  userRow(username: string): Locator {
    return this.usersTable.locator(`tr[data-username="${username}"]`);
  }

  roleSelect(username: string): Locator {
    return this.page.getByLabel(`Role of ${username}`, { exact: true });
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
}
