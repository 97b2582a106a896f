import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/http-client';
import { startServerProcess, stopProcess } from '../support/server-process';
import { healthApi } from '../../shared/api/health';

const dir = mkdtempSync(join(tmpdir(), 'hqa-proc-'));
const dbPath = join(dir, 'hqa.sqlite');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the server process', () => {
  it('prints a random admin password on first start only, and shuts down cleanly on SIGTERM and SIGINT', async () => {
    const first = await startServerProcess({ HQA_DB: dbPath });
    const password = /password\s+(\S+)\s/.exec(first.output())?.[1];
    expect(password).toBeTruthy();
    const client = new TestClient(first.url);
    await client.login('admin', password ?? '');
    expect((await client.send(healthApi.get)).status).toBe(200);
    expect(await stopProcess(first.child, 'SIGTERM')).toBe(0);

    const second = await startServerProcess({ HQA_DB: dbPath });
    expect(second.output()).not.toMatch(/First start/);
    const again = new TestClient(second.url);
    await again.login('admin', password ?? '');
    expect(await stopProcess(second.child, 'SIGINT')).toBe(0);
  });
});
