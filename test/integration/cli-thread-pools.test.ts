import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { liveThreadCount } from '../../server/jobs/thread-pool';
import { runCli } from '../support/cli';

const dir = mkdtempSync(join(tmpdir(), 'hqa-cli-threads-'));
const dbPath = join(dir, 'hqa.sqlite');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the CLI and the thread pools', () => {
  it('leaves the pools’ threads to the process: a command run in-process ends none of them', async () => {
    const split = join(dir, 'demo');
    expect((await runCli(['demo', split, '--charts', '6'], { dbPath })).status).toBe(0);
    expect((await runCli(['import', split, '--json'], { dbPath })).status).toBe(0);
    const generated = await runCli(['generate', '--engine', 'offline', '--items', '4', '--json'], { dbPath });
    expect(generated.stderr).toBe('');
    expect(generated.status).toBe(0);
    // The offline rules ran on a thread, which is still there for the next command (the CLI's entry
    // ends the pools once, when its process's one command has): a start is seconds of CPU under tsx.
    expect(liveThreadCount()).toBeGreaterThan(0);
  }, 120_000);
});
