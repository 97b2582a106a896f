import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Writable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAuditEntries } from '../../server/audit/audit-queries';
import { downloadHfDataset } from '../../server/export/hf-dataset-zip';
import { setItemStatus } from '../support/factories';
import { generateItems } from '../support/review-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * A Hugging Face download the browser abandons (a closed tab, a timeout) ends the zip's stream
 * mid-way. The temporary folder was removed while the zip still had files to read from it, and
 * the zip's own error had no listener: an uncaught exception, which ends a server.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const workFolders = () => readdirSync(tmpdir()).filter((name) => name.startsWith('hqa-hf-export-'));

describe('a Hugging Face download abandoned mid-way', () => {
  it('fails its own request only: no uncaught error, no temporary folder left, no audit of a download', async () => {
    const { db } = server.server.ctx;
    const runId = await generateItems(server, 6);
    setItemStatus(db, 'accepted', { runId });
    const before = new Set(workFolders());
    let chunks = 0;
    // The browser goes away after the zip's first bytes.
    const abandoned = new Writable({
      write(_chunk, _encoding, callback) {
        chunks += 1;
        callback(chunks === 1 ? null : new Error('the client went away'));
      },
    });
    await expect(downloadHfDataset(db, server.server.ctx.events, abandoned, { name: 'abandoned' }, 1)).rejects.toThrow(/client went away/);
    // Whatever the zip still tried to read fails quietly (an uncaught error would fail this file).
    await delay(300);
    expect(workFolders().filter((name) => !before.has(name))).toEqual([]);
    expect(existsSync(tmpdir())).toBe(true);
    expect(listAuditEntries(db, { action: 'export.downloaded' }, 10)).toEqual([]);
  }, 60_000);
});
