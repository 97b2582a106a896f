import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/http-client';

const dir = mkdtempSync(join(tmpdir(), 'hqa-proc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts `server/main.ts` as `npm start` does (without the client build) and waits for its URL. */
async function startProcess(): Promise<{ child: ChildProcessWithoutNullStreams; url: string; output: () => string }> {
  const child = spawn(resolve('node_modules/.bin/tsx'), [resolve('server/main.ts')], {
    env: { ...process.env, HQA_DB: join(dir, 'hqa.sqlite'), HQA_PORT: '0', HQA_LOG_LEVEL: 'warn' },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    const check = () => {
      const match = /Open (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    };
    child.stdout.on('data', check);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return { child, url, output: () => output };
}

function stop(child: ChildProcessWithoutNullStreams, signal: NodeJS.Signals): Promise<number | null> {
  return new Promise((resolveExit) => {
    child.once('exit', (code) => resolveExit(code));
    child.kill(signal);
  });
}

describe('the server process', () => {
  it('prints a random admin password on first start only, and shuts down cleanly on SIGTERM and SIGINT', async () => {
    const first = await startProcess();
    const password = /password\s+(\S+)\s/.exec(first.output())?.[1];
    expect(password).toBeTruthy();
    const client = new TestClient(first.url);
    await client.login('admin', password ?? '');
    expect((await client.get('/api/health')).status).toBe(200);
    expect(await stop(first.child, 'SIGTERM')).toBe(0);

    const second = await startProcess();
    expect(second.output()).not.toMatch(/First start/);
    const again = new TestClient(second.url);
    await again.login('admin', password ?? '');
    expect(await stop(second.child, 'SIGINT')).toBe(0);
  });
});
