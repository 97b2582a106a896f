import type { Locator, Page } from 'playwright-core';

/** The signed-in shell: navigation, current user, logout. */
export class AppFrame {
  readonly nav: Locator;
  readonly currentUser: Locator;

  constructor(readonly page: Page) {
    this.nav = page.getByRole('navigation', { name: 'Main' });
    this.currentUser = page.getByTestId('current-user');
  }

  navLink(label: string): Locator {
    return this.nav.getByRole('link', { name: label, exact: true });
  }

  async navigate(label: string): Promise<void> {
    await this.navLink(label).click();
    await this.page.getByRole('heading', { level: 1, name: label }).waitFor();
  }

  async navLabels(): Promise<string[]> {
    return this.nav.getByRole('link').allTextContents();
  }

  async logout(): Promise<void> {
    await this.page.getByRole('button', { name: 'Log out' }).click();
    await this.page.getByRole('button', { name: 'Sign in' }).waitFor();
  }
}
