import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/http-client';
import { startServerProcess, stopProcess } from '../support/server-process';
import { healthApi } from '../../shared/api/health';

const dir = mkdtempSync(join(tmpdir(), 'hqa-proc-'));
const dbPath = join(dir, 'hqa.sqlite');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the server process', () => {
  it('prints a random admin password on first start only, and shuts down cleanly on SIGTERM and SIGINT', async () => {
    const record = join(dir, 'modules.txt');
    const first = await startServerProcess({ HQA_DB: dbPath, HQA_MODULE_RECORD: record }, ['--import', resolve('test/support/module-record.mjs')]);
    const password = /password\s+(\S+)\s/.exec(first.output())?.[1];
    expect(password).toBeTruthy();
    const client = new TestClient(first.url);
    await client.login('admin', password ?? '');
    expect((await client.send(healthApi.get)).status).toBe(200);
    expect(await stopProcess(first.child, 'SIGTERM')).toBe(0);
    // Drawing (Vega, Vega-Lite, sharp) and language (compromise) load at their first use, on a
    // thread or in-process: together ~2 s of CPU a start under tsx that a server (or a test
    // that restarts one) paid before its first request, whether it drew or phrased anything.
    const loaded = readFileSync(record, 'utf8').split('\n');
    expect(loaded.length).toBeGreaterThan(100);
    const heavy = loaded.filter((path) => /node_modules\/(vega|vega-lite|sharp|compromise)\//.test(path));
    expect(heavy).toEqual([]);

    const second = await startServerProcess({ HQA_DB: dbPath });
    expect(second.output()).not.toMatch(/First start/);
    const again = new TestClient(second.url);
    await again.login('admin', password ?? '');
    expect(await stopProcess(second.child, 'SIGINT')).toBe(0);
  });
});
