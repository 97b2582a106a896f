import type { Locator, Page } from 'playwright-core';

export class LoginPage {
  readonly username: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  readonly error: Locator;

  constructor(
    readonly page: Page,
    readonly baseUrl: string,
  ) {
    this.username = page.getByLabel('Username');
    this.password = page.getByLabel('Password');
    this.submit = page.getByRole('button', { name: 'Sign in' });
    this.error = page.getByTestId('login-error');
  }

  async goto(): Promise<this> {
    await this.page.goto(`${this.baseUrl}/login`);
    return this;
  }

  /** Fills and submits the form; does not wait for the outcome. */
  async submitCredentials(username: string, password: string): Promise<void> {
    await this.username.fill(username);
    await this.password.fill(password);
    await this.submit.click();
  }

  /** Logs in and waits for the signed-in frame. */
  async login(username: string, password: string): Promise<void> {
    await this.submitCredentials(username, password);
    await this.page.getByTestId('current-user').waitFor();
  }
}
