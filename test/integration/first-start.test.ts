import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { stopProcess } from '../support/server-process';

const dir = mkdtempSync(join(tmpdir(), 'hqa-first-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `server/main.ts` as `npm start` runs it (see test/support/server-process.ts), stdout and stderr apart. */
function spawnServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve('server/main.ts')], {
    env: { ...process.env, OPENAI_API_KEY: '', HQA_DEMO: 'false', ...env },
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (out.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out.stderr += chunk.toString()));
  return { child, out };
}

function occupyPort(): Promise<{ server: Server; port: number }> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') return reject(new Error('no port'));
      resolvePort({ server, port: address.port });
    });
  });
}

function usersIn(dbPath: string): number {
  const db = new Database(dbPath, { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM users').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('the first start', () => {
  it('on a taken port says so in one line and exits non-zero before the admin is created', async () => {
    const dbPath = join(dir, 'taken.sqlite');
    const { server, port } = await occupyPort();
    try {
      const { child, out } = spawnServer({ HQA_DB: dbPath, HQA_PORT: String(port), HQA_LOG_LEVEL: 'info' });
      const code = await new Promise<number | null>((resolveExit) => child.once('exit', (exitCode) => resolveExit(exitCode)));
      expect(code).not.toBe(0);
      expect(code).not.toBeNull();
      expect(out.stderr).toBe(`port ${port} is in use; set HQA_PORT\n`);
      expect(out.stdout).not.toMatch(/password/i);
      // No admin: the next start (on a free port) creates it and shows its password.
      expect(usersIn(dbPath)).toBe(0);
    } finally {
      server.close();
    }
  });

  it('with a mistyped setting says which in one line and exits non-zero before the admin is created', async () => {
    const dbPath = join(dir, 'mistyped.sqlite');
    const { child, out } = spawnServer({ HQA_DB: dbPath, HQA_PORT: '0', HQA_PASSWORD_COST: 'high' });
    const code = await new Promise<number | null>((resolveExit) => child.once('exit', (exitCode) => resolveExit(exitCode)));
    expect(code).toBe(1);
    expect(out.stderr).toBe('Chart-HQA Workbench cannot start: HQA_PASSWORD_COST=high: expected an integer from 10 to 18 (log2 of scrypt\'s N; default 15)\n');
    expect(out.stdout).toBe('');
  });

  it('prints the password after the server listens and again as the last line of start-up', async () => {
    const dbPath = join(dir, 'free.sqlite');
    // At info level the start-up log lines come between: the last line must still be the password.
    const { child, out } = spawnServer({ HQA_DB: dbPath, HQA_PORT: '0', HQA_LOG_LEVEL: 'info' });
    try {
      await new Promise<void>((resolveStarted, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start-up:\n${out.stdout}${out.stderr}`)), 30_000);
        child.stdout.on('data', () => {
          if (!/shown only this once\)\n/.test(out.stdout)) return;
          clearTimeout(timer);
          resolveStarted();
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${out.stdout}${out.stderr}`)));
      });
      const lines = out.stdout.trimEnd().split('\n');
      const password = /password\s+(\S+)\s/.exec(out.stdout)?.[1] ?? '';
      expect(password).toMatch(/^\S{12,}$/);
      expect(lines.at(-1)).toBe(`  First start: user "admin", password ${password} (shown only this once)`);
      // The full banner, then the URL, then its one line again.
      const banner = lines.findIndex((line) => line.trim() === password);
      const open = lines.findIndex((line) => line.startsWith('  Open http://'));
      expect(banner).toBeGreaterThanOrEqual(0);
      expect(open).toBeGreaterThan(banner);
      const url = /Open (http:\/\/\S+)/.exec(out.stdout)?.[1] ?? '';
      expect((await fetch(`${url}/api/health`)).status).toBe(200);
      expect(usersIn(dbPath)).toBe(1);
    } finally {
      expect(await stopProcess(child, 'SIGTERM')).toBe(0);
    }
  });
});
