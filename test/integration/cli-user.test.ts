import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openAndMigrate } from '../../db/database';
import { verifyPassword } from '../../server/auth/passwords';
import { createSession, userForToken } from '../../server/auth/sessions';
import { findUserForLogin } from '../../server/users/user-queries';
import { userIdByName } from '../../server/users/user-service';
import { runCli, runCliProcess } from '../support/cli';
import { buildAssignment, buildChart, buildItem, buildQa } from '../support/factories';

const dir = mkdtempSync(join(tmpdir(), 'hqa-cli-user-'));
const dbPath = join(dir, 'hqa.sqlite');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function passwordWorks(username: string, password: string): Promise<boolean> {
  const db = openAndMigrate(dbPath);
  try {
    const user = findUserForLogin(db, username);
    return user ? await verifyPassword(password, user.password_hash) : false;
  } finally {
    db.close();
  }
}

describe('hqa user add', () => {
  // Its own process: a real pipe on stdin, as a user's `echo … | hqa user add` gives it; the other runs are in-process (runCli).
  it('reads the password from stdin', async () => {
    const result = await runCliProcess(['user', 'add', 'ana', '--role', 'reviewer'], { dbPath, input: 'a-long-secret\n' });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('created reviewer "ana"\n');
    expect(await passwordWorks('ana', 'a-long-secret')).toBe(true);
  });

  it('generates a password and prints it once when stdin is empty', async () => {
    const result = await runCli(['user', 'add', 'ben', '--role', 'curator'], { dbPath });
    const password = /password \(shown once\): (\S+)/.exec(result.stdout)?.[1];
    expect(password).toBeTruthy();
    expect(await passwordWorks('ben', password ?? '')).toBe(true);
  });

  it('refuses a bad role, a short password and a taken name, naming the problem', async () => {
    expect((await runCli(['user', 'add', 'cy', '--role', 'boss'], { dbPath })).stderr).toMatch(/--role: must be one of admin, curator, reviewer/);
    expect((await runCli(['user', 'add', 'cy', '--role', 'reviewer'], { dbPath, input: 'short\n' })).stderr).toMatch(/password \(stdin\): must be at least 8/);
    const taken = await runCli(['user', 'add', 'ANA', '--role', 'reviewer'], { dbPath, input: 'another-secret\n' });
    expect(taken.status).toBe(1);
    expect(taken.stderr).toMatch(/a user named "ANA" already exists/);
  });
});

/** Opens the CLI's database in this process for a moment. */
function withDb<T>(use: (db: ReturnType<typeof openAndMigrate>) => T): T {
  const db = openAndMigrate(dbPath);
  try {
    return use(db);
  } finally {
    db.close();
  }
}

describe('hqa user disable|enable|reset-password|revoke', () => {
  const signIn = (username: string) => withDb((db) => createSession(db, userIdByName(db, username)).token);
  const sessionWorks = (token: string) => withDb((db) => userForToken(db, token) !== null);

  it('disable says how many items assigned to the user went back to the general queue', async () => {
    await runCli(['user', 'add', 'eli', '--role', 'reviewer'], { dbPath, input: 'eli-secret-12\n' });
    await runCli(['user', 'add', 'cass', '--role', 'curator'], { dbPath, input: 'cass-secret-12\n' });
    withDb((db) => {
      const reviewer = userIdByName(db, 'eli');
      const curator = userIdByName(db, 'cass');
      for (let i = 0; i < 2; i++) {
        const item = buildItem(db, { qaId: buildQa(db, { chartId: buildChart(db) }) });
        buildAssignment(db, { itemId: item, reviewerId: reviewer, assignedBy: curator });
      }
    });
    expect(await runCli(['user', 'disable', 'eli'], { dbPath })).toMatchObject({
      status: 0,
      stdout: 'disabled "eli"; ended 0 sessions; 2 items assigned to them back in the general queue\n',
    });
    expect(withDb((db) => (db.prepare('SELECT COUNT(*) AS n FROM item_assignments').get() as { n: number }).n)).toBe(0);
  });

  it('disable ends the sessions and refuses login; enable lets the user log in again, old sessions stay ended', async () => {
    await runCli(['user', 'add', 'dora', '--role', 'reviewer'], { dbPath, input: 'dora-secret-1\n' });
    const token = signIn('dora');
    const disabled = await runCli(['user', 'disable', 'dora'], { dbPath });
    expect(disabled).toMatchObject({ status: 0, stdout: 'disabled "dora"; ended 1 session\n' });
    expect(sessionWorks(token)).toBe(false);
    expect(await passwordWorks('dora', 'dora-secret-1')).toBe(false);

    expect(await runCli(['user', 'enable', 'DORA'], { dbPath })).toMatchObject({ status: 0, stdout: 'enabled "dora"\n' });
    expect(await passwordWorks('dora', 'dora-secret-1')).toBe(true);
    expect(sessionWorks(token)).toBe(false);
  });

  it('reset-password prints a generated password once; only it works, and the sessions end', async () => {
    await runCli(['user', 'add', 'emil', '--role', 'curator'], { dbPath, input: 'emil-secret-1\n' });
    const token = signIn('emil');
    const reset = await runCli(['user', 'reset-password', 'emil'], { dbPath });
    expect(reset.status).toBe(0);
    const lines = reset.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('reset the password of "emil"; ended 1 session');
    const password = /^password \(shown once\): (\S+)$/.exec(lines[1] ?? '')?.[1];
    expect(lines).toHaveLength(2);
    expect(await passwordWorks('emil', password ?? '')).toBe(true);
    expect(await passwordWorks('emil', 'emil-secret-1')).toBe(false);
    expect(sessionWorks(token)).toBe(false);
  });

  it('revoke ends every session of the user, who may log in again', async () => {
    await runCli(['user', 'add', 'fay', '--role', 'reviewer'], { dbPath, input: 'fay-secret-11\n' });
    const tokens = [signIn('fay'), signIn('fay')];
    expect(await runCli(['user', 'revoke', 'fay'], { dbPath })).toMatchObject({ status: 0, stdout: 'ended 2 sessions of "fay"\n' });
    expect(tokens.map(sessionWorks)).toEqual([false, false]);
    expect(await passwordWorks('fay', 'fay-secret-11')).toBe(true);
  });

  it('names an unknown user, and refuses to disable the last enabled admin', async () => {
    const missing = await runCli(['user', 'revoke', 'nobody'], { dbPath });
    expect(missing).toMatchObject({ status: 1, stderr: 'hqa: user "nobody" not found\n' });
    await runCli(['user', 'add', 'gus', '--role', 'admin'], { dbPath, input: 'gus-secret-11\n' });
    const last = await runCli(['user', 'disable', 'gus'], { dbPath });
    expect(last).toMatchObject({ status: 1, stderr: 'hqa: cannot disable "gus": they are the last enabled admin; make another user admin first\n' });
    expect(withDb((db) => findUserForLogin(db, 'gus'))).not.toBeNull();
  });
});
