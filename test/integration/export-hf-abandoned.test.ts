import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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


describe('a Hugging Face download abandoned mid-way', () => {
  it('fails its own request only: no uncaught error, no temporary folder left, no audit of a download', async () => {
    const { db } = server.server.ctx;
    const runId = await generateItems(server, 6);
    setItemStatus(db, 'accepted', { runId });
    // The download's folder goes under a temporary directory of this test's own: another file's
    // download, in the other worker, may have one of its own in the system's at the same moment.
    const systemTmp = tmpdir();
    const ownTmp = mkdtempSync(join(systemTmp, 'hqa-abandoned-'));
    const previousTmpdir = process.env.TMPDIR;
    process.env.TMPDIR = ownTmp;
    let chunks = 0;
    // The browser goes away after the zip's first bytes.
    const abandoned = new Writable({
      write(_chunk, _encoding, callback) {
        chunks += 1;
        callback(chunks === 1 ? null : new Error('the client went away'));
      },
    });
    try {
      await expect(downloadHfDataset(db, server.server.ctx.events, abandoned, { name: 'abandoned' }, 1)).rejects.toThrow(/client went away/);
      // Whatever the zip still tried to read fails quietly (an uncaught error would fail this file).
      await delay(300);
      expect(readdirSync(ownTmp).filter((name) => name.startsWith('hqa-hf-export-'))).toEqual([]);
    } finally {
      if (previousTmpdir === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previousTmpdir;
      rmSync(ownTmp, { recursive: true, force: true });
    }
    expect(existsSync(systemTmp)).toBe(true);
    expect(listAuditEntries(db, { action: 'export.downloaded' }, 10)).toEqual([]);
  }, 60_000);
});
