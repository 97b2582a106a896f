import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getSettings } from '../../server/settings/settings-queries';
import { providersFor } from '../../server/llm/model-roles';
import { startTestServer, type TestServer } from '../support/test-server';
import { AdminPage } from './pages/admin-page';
import { AppFrame } from './pages/app-frame';
import { LoginPage } from './pages/login-page';
import { SignedInBrowsers } from './signed-in-browsers';

const ADMIN = { username: 'ada', password: 'admin-pass-123' };

let server: TestServer;
const browsers = new SignedInBrowsers();

beforeAll(async () => {
  // No session sweep: a browser signed out here was signed out by the action itself, at once.
  // No demo split: users and settings are all these tests touch.
  server = await startTestServer({ demo: false, config: { sessionSweepMs: 3_600_000 } });
  await server.createUser(ADMIN.username, 'admin', ADMIN.password);
});

afterAll(async () => {
  await server?.close();
});

afterEach(() => browsers.closeAll());

const signIn = (username: string, password: string) => browsers.signIn(server.url, { username, password });
/** The admin signed in to a browser of their own, on the Admin page. */
const adminPage = async () => new AdminPage(await browsers.signIn(server.url, ADMIN, null), server.url).goto();

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

    // Through the login form: that they can log in is the point here.
    const newcomer = await browsers.open();
    await new LoginPage(newcomer, server.url).goto().then((login) => login.login('newton', password ?? ''));
    expect(await new AppFrame(newcomer).currentUser.textContent()).toContain('newton');
    expect(await new AppFrame(newcomer).navLabels()).not.toContain('Admin');
  });

  it('an admin adds a user with a chosen password and changes their role', async () => {
    const admin = await adminPage();
    const { page } = admin;

    expect(await admin.addUser('carla', 'reviewer', 'carla-pass-123')).toBeUndefined();
    expect(await admin.generatedPassword.count()).toBe(0);

    await admin.roleSelect('carla').selectOption('curator');
    await admin.userRow('carla').getByText('Saved').waitFor();
    await page.reload();
    await admin.usersTable.waitFor();
    expect(await admin.roleSelect('carla').inputValue()).toBe('curator');
  });

  it('shows the server’s reason when a username is taken', async () => {
    const { page } = await adminPage();
    const form = page.locator('form.add-user');
    await form.getByLabel('Username').fill(ADMIN.username);
    await form.getByRole('button', { name: 'Add user' }).click();
    const alert = form.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('already exists');
    expect(await form.getByLabel('Username').getAttribute('aria-invalid')).toBe('true');
  });

  it('an admin disables a user, whose open browser is signed out at once and who cannot log in; enabled, they log in again', async () => {
    await server.createUser('dana', 'reviewer', 'dana-pass-123');
    const dana = await signIn('dana', 'dana-pass-123');
    const admin = await adminPage();
    await admin.userSessions('dana').getByText('1').waitFor();

    await admin.accountAction('dana', 'Disable');
    await admin.userActions('dana').getByText('Disabled; ended 1 session.').waitFor();
    // The users list is refetched after the answer that shows the message: its status follows.
    await expect.poll(() => admin.userStatus('dana').textContent()).toMatch(/^Disabled /);
    expect(await admin.roleSelect('dana').isDisabled()).toBe(true);
    // No request of dana's was needed: the closed socket sent their browser to the login page.
    await new LoginPage(dana, server.url).submit.waitFor();
    const refused = await new LoginPage(dana, server.url).goto();
    await refused.submitCredentials('dana', 'dana-pass-123');
    await refused.error.waitFor();

    await admin.accountAction('dana', 'Enable');
    await admin.userStatus('dana').getByText('Active').waitFor();
    await refused.submitCredentials('dana', 'dana-pass-123');
    await dana.getByTestId('current-user').waitFor();
  });

  it('an admin resets a password: the new one is shown once, the old one stops working', async () => {
    await server.createUser('emma', 'curator', 'emma-pass-123');
    const emma = await signIn('emma', 'emma-pass-123');
    const admin = await adminPage();
    const { page } = admin;

    const password = await admin.resetPassword('emma');
    expect(password.length).toBeGreaterThanOrEqual(16);
    await new LoginPage(emma, server.url).submit.waitFor();
    await admin.userRow('emma').getByRole('button', { name: 'Done' }).click();
    expect(await admin.userRow('emma').getByTestId('reset-password').count()).toBe(0);
    await page.reload();
    await admin.usersTable.waitFor();
    expect(await page.content()).not.toContain(password);

    const login = await new LoginPage(emma, server.url).goto();
    await login.submitCredentials('emma', 'emma-pass-123');
    await login.error.waitFor();
    await login.login('emma', password);
  });

  it('an admin revokes a user’s sessions: every browser of theirs is signed out, and they may log in again', async () => {
    await server.createUser('finn', 'reviewer', 'finn-pass-123');
    const finn = await signIn('finn', 'finn-pass-123');
    const finnElsewhere = await signIn('finn', 'finn-pass-123');
    const admin = await adminPage();
    await admin.userSessions('finn').getByText('2').waitFor();

    await admin.accountAction('finn', 'Revoke sessions');
    await admin.userActions('finn').getByText('Ended 2 sessions.').waitFor();
    // The users list is refetched after the answer that shows the message: its count follows.
    await expect.poll(() => admin.userSessions('finn').textContent()).toBe('0');
    await new LoginPage(finn, server.url).submit.waitFor();
    await new LoginPage(finnElsewhere, server.url).submit.waitFor();
    await new LoginPage(finn, server.url).login('finn', 'finn-pass-123');
  });

  it('an admin cannot disable themselves nor reset their own password here', async () => {
    const admin = await adminPage();
    const own = admin.userActions(ADMIN.username);
    expect(await own.getByRole('button', { name: 'Disable', exact: true }).isDisabled()).toBe(true);
    expect(await own.getByRole('button', { name: 'Reset password', exact: true }).isDisabled()).toBe(true);
  });

  it('an admin changes the generation model and ROUGE threshold, and a bad threshold is refused on its field', async () => {
    const admin = await adminPage();
    const { page } = admin;
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

  it('an admin sets the judge model (gpt-4o, as CharXiv graded, until changed), which the judge role then asks; an empty one is refused', async () => {
    const admin = await adminPage();
    const judge = admin.setting('Judge model');
    await judge.waitFor();
    expect(await judge.inputValue()).toBe('gpt-4o');
    await judge.fill('gpt-4o-2024-05-13');
    await admin.saveSettings();
    await admin.settingsNotice.getByText('Settings saved.').waitFor();
    expect(providersFor(getSettings(server.server.ctx.db), { openaiApiKey: 'k', openaiBaseUrl: undefined }).judge.model).toBe('gpt-4o-2024-05-13');

    await judge.fill('  ');
    await admin.saveSettings();
    expect(await admin.settingError('Judge model')).not.toBeNull();
    expect(getSettings(server.server.ctx.db).judge_model).toBe('gpt-4o-2024-05-13');
  });

  it('an admin sets the session idle timeout, which refuses less than 5 minutes', async () => {
    const admin = await adminPage();
    const idle = admin.setting('Session idle timeout (minutes)');
    await idle.waitFor();
    expect(await idle.inputValue()).toBe('720');
    await idle.fill('90');
    await admin.saveSettings();
    await admin.settingsNotice.getByText('Settings saved.').waitFor();
    expect(getSettings(server.server.ctx.db).session_idle_minutes).toBe(90);

    await idle.fill('2');
    await admin.saveSettings();
    expect(await admin.settingError('Session idle timeout (minutes)')).toMatch(/5/);
    expect(getSettings(server.server.ctx.db).session_idle_minutes).toBe(90);
  });

  it('an admin keeps a share of unchanged-answer items as controls; the field says what it does and refuses a share above 1', async () => {
    const admin = await adminPage();
    const { page } = admin;
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

  it('an admin sets how large a change is plausible and keeps items the checks call errors, by keyboard', async () => {
    const admin = await adminPage();
    const { page } = admin;
    const change = admin.setting('Largest plausible change');
    await change.waitFor();
    expect(await change.inputValue()).toBe('0.5');
    const keep = page.getByLabel(/Keep generated items the checks find errors in/);
    expect(await keep.isChecked()).toBe(false);

    await change.fill('0.6');
    await keep.focus();
    await page.keyboard.press('Space');
    await admin.saveSettings();
    await admin.settingsNotice.getByText('Settings saved.').waitFor();
    expect(getSettings(server.server.ctx.db)).toMatchObject({ max_change_share: 0.6, keep_items_with_errors: true });

    await change.fill('1');
    await admin.saveSettings();
    expect(await admin.settingError('Largest plausible change')).toMatch(/0\.99|1/);
    expect(getSettings(server.server.ctx.db).max_change_share).toBe(0.6);
  });
});
