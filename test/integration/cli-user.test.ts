import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openAndMigrate } from '../../db/database';
import { verifyPassword } from '../../server/auth/passwords';
import { findUserForLogin } from '../../server/users/user-queries';
import { runCli } from '../support/cli';

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
  it('reads the password from stdin', async () => {
    const result = runCli(['user', 'add', 'ana', '--role', 'reviewer'], { dbPath, input: 'a-long-secret\n' });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('created reviewer "ana"\n');
    expect(await passwordWorks('ana', 'a-long-secret')).toBe(true);
  });

  it('generates a password and prints it once when stdin is empty', async () => {
    const result = runCli(['user', 'add', 'ben', '--role', 'curator'], { dbPath });
    const password = /password \(shown once\): (\S+)/.exec(result.stdout)?.[1];
    expect(password).toBeTruthy();
    expect(await passwordWorks('ben', password ?? '')).toBe(true);
  });

  it('refuses a bad role, a short password and a taken name, naming the problem', () => {
    expect(runCli(['user', 'add', 'cy', '--role', 'boss'], { dbPath }).stderr).toMatch(/--role: must be one of admin, curator, reviewer/);
    expect(runCli(['user', 'add', 'cy', '--role', 'reviewer'], { dbPath, input: 'short\n' }).stderr).toMatch(/password \(stdin\): must be at least 8/);
    const taken = runCli(['user', 'add', 'ANA', '--role', 'reviewer'], { dbPath, input: 'another-secret\n' });
    expect(taken.status).toBe(1);
    expect(taken.stderr).toMatch(/a user named "ANA" already exists/);
  });
});
