import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getSettings } from '../../server/settings/settings-queries';
import { startTestServer, type TestServer } from '../support/test-server';
import { AdminPage } from './pages/admin-page';
import { AppFrame } from './pages/app-frame';
import { SignedInBrowsers } from './signed-in-browsers';

const ADMIN = { username: 'ada', password: 'admin-pass-123' };

let server: TestServer;
const browsers = new SignedInBrowsers();

beforeAll(async () => {
  server = await startTestServer();
  await server.createUser(ADMIN.username, 'admin', ADMIN.password);
});

afterAll(async () => {
  await server?.close();
});

afterEach(() => browsers.closeAll());

const signIn = (username: string, password: string) => browsers.signIn(server.url, { username, password });

describe('admin in the browser', () => {
  it('an admin adds a user with a generated password, who can then log in', async () => {
    const page = await signIn(ADMIN.username, ADMIN.password);
    const frame = new AppFrame(page);
    await frame.navigate('Admin');
    const admin = new AdminPage(page, server.url);
    await admin.usersTable.waitFor();

    const password = await admin.addUser('newton', 'reviewer');
    expect(password).toBeTruthy();
    await admin.userRow('newton').waitFor();
    expect(await admin.roleSelect('newton').inputValue()).toBe('reviewer');

    const newcomer = await signIn('newton', password ?? '');
    expect(await new AppFrame(newcomer).currentUser.textContent()).toContain('newton');
    expect(await new AppFrame(newcomer).navLabels()).not.toContain('Admin');
  });

  it('an admin adds a user with a chosen password and changes their role', async () => {
    const page = await signIn(ADMIN.username, ADMIN.password);
    const admin = await new AdminPage(page, server.url).goto();

    expect(await admin.addUser('carla', 'reviewer', 'carla-pass-123')).toBeUndefined();
    expect(await admin.generatedPassword.count()).toBe(0);

    await admin.roleSelect('carla').selectOption('curator');
    await admin.userRow('carla').getByText('Saved').waitFor();
    await page.reload();
    await admin.usersTable.waitFor();
    expect(await admin.roleSelect('carla').inputValue()).toBe('curator');
  });

  it('shows the server’s reason when a username is taken', async () => {
    const page = await signIn(ADMIN.username, ADMIN.password);
    await new AdminPage(page, server.url).goto();
    const form = page.locator('form.add-user');
    await form.getByLabel('Username').fill(ADMIN.username);
    await form.getByRole('button', { name: 'Add user' }).click();
    const alert = form.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('already exists');
    expect(await form.getByLabel('Username').getAttribute('aria-invalid')).toBe('true');
  });

  it('an admin changes the generation model and ROUGE threshold, and a bad threshold is refused on its field', async () => {
    const page = await signIn(ADMIN.username, ADMIN.password);
    const admin = await new AdminPage(page, server.url).goto();
    const model = admin.setting('Generation model');
    const threshold = admin.setting('ROUGE-L duplicate threshold');
    await model.waitFor();

    await model.fill('gpt-4.1-mini');
    await threshold.fill('0.55');
    await admin.saveSettings();
    await admin.settingsNotice.getByText('Settings saved.').waitFor();

    await page.reload();
    await model.waitFor();
    expect(await model.inputValue()).toBe('gpt-4.1-mini');
    expect(await threshold.inputValue()).toBe('0.55');

    await threshold.fill('2');
    await admin.saveSettings();
    expect(await admin.settingError('ROUGE-L duplicate threshold')).toMatch(/1/);
    expect(await admin.settingsNotice.count()).toBe(0);
    expect(await model.getAttribute('aria-invalid')).toBeNull();
  });

  it('an admin keeps a share of unchanged-answer items as controls; the field says what it does and refuses a share above 1', async () => {
    const page = await signIn(ADMIN.username, ADMIN.password);
    const admin = await new AdminPage(page, server.url).goto();
    const share = admin.setting('Unchanged-answer control share');
    await share.waitFor();
    expect(await share.inputValue()).toBe('0');
    const hintId = (await share.getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`[id="${hintId}"]`).textContent()).toMatch(/made as controls.*other unchanged-answer items are not stored/);

    await share.fill('0.1');
    await admin.saveSettings();
    await admin.settingsNotice.getByText('Settings saved.').waitFor();
    expect(getSettings(server.server.ctx.db).unchanged_control_share).toBe(0.1);

    await share.fill('1.5');
    await admin.saveSettings();
    expect(await admin.settingError('Unchanged-answer control share')).toMatch(/1/);
    expect(getSettings(server.server.ctx.db).unchanged_control_share).toBe(0.1);
  });
});
