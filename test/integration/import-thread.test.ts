import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openAndMigrate } from '../../db/database';
import { importFolderOffThread } from '../../server/import/import-thread';
import { ImportSetupError } from '../../server/import/import-split';
import { CHARTQA_MORE } from '../support/paths';

const dir = mkdtempSync(join(tmpdir(), 'hqa-import-thread-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function freshDatabase(name: string): string {
  const dbPath = join(dir, `${name}.sqlite`);
  openAndMigrate(dbPath).close();
  return dbPath;
}

async function importWithProgress(dbPath: string) {
  const told: [number, number][] = [];
  const result = await importFolderOffThread({ dbPath, dir: CHARTQA_MORE, options: { split: 'more' } }, (done, total) => told.push([done, total]));
  return { result, told };
}

describe('a browser import on the thread pool', () => {
  it('imports on its own connection and tells all its progress before its result, as it does in-process', async () => {
    const threaded = await importWithProgress(freshDatabase('threaded'));
    expect(threaded.result.report.charts_imported).toBe(120);
    const [last] = threaded.told.slice(-1);
    expect(last).toEqual([threaded.told[0]?.[1], threaded.told[0]?.[1]]);
    expect(threaded.told.map(([done]) => done)).toEqual([...threaded.told.map(([done]) => done)].sort((a, b) => a - b));

    const previous = process.env.HQA_IMPORT_THREADS;
    process.env.HQA_IMPORT_THREADS = '0';
    try {
      const inProcess = await importWithProgress(freshDatabase('in-process'));
      expect(inProcess.result).toEqual(threaded.result);
      expect(inProcess.told).toEqual(threaded.told);
    } finally {
      if (previous === undefined) delete process.env.HQA_IMPORT_THREADS;
      else process.env.HQA_IMPORT_THREADS = previous;
    }
  });

  it('gives back a setup error as one, naming the folder', async () => {
    const dbPath = freshDatabase('missing');
    const missing = join(dir, 'no-such-folder');
    const failed = importFolderOffThread({ dbPath, dir: missing, options: { split: 'x' } }, () => undefined);
    await expect(failed).rejects.toBeInstanceOf(ImportSetupError);
    await expect(failed).rejects.toThrow(/no-such-folder/);
  });
});
