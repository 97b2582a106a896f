import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportProgressSchema, ImportUploadResultSchema, splitsApi, SplitSummarySchema } from '../../shared/api/splits';
import { ErrorBodySchema } from '../../shared/errors';
import { DEFAULT_UPLOAD_MAX_ENTRIES, DEFAULT_UPLOAD_MAX_RATIO, DEFAULT_UPLOAD_MAX_UNPACKED_MB } from '../../shared/settings';
import { UPLOAD_FOLDER_PREFIX } from '../../server/import/upload-folders';
import { DEFAULT_ZIP_LIMITS, unpackZip } from '../../server/import/zip-archive';
import type { TestClient } from '../support/http-client';
import { CHARTQA_SAMPLE } from '../support/paths';
import { SignedInUsers, type SignedInUser } from '../support/signed-in-users';
import { connectAs, recordEvents, type TestSocket } from '../support/socket-client';
import { startTestServer, type TestServer } from '../support/test-server';
import { understateSize, zipFolder } from '../support/zip-folder';
import { uploadZip } from '../support/upload-zip';
import { settingsApi } from '../../shared/api/settings';

/** Browser uploads against a zip bomb, a lying zip, the admin's limits, a second upload at once, and a crash's leftovers. */

let server: TestServer;
let admin: SignedInUser;
let curator: SignedInUser;
let socket: TestSocket;
let work: string;
/** The ChartQA sample plus 64 MiB of one repeated byte: a zip of about 100 KB, a thousand times smaller than what it unpacks to. */
let bomb: Buffer;
const BOMB_ENTRY = 'bomb/zeros.csv';
const BOMB_BYTES = 64 * 1024 ** 2;

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  const users = new SignedInUsers(server);
  admin = await users.create('admin');
  curator = await users.create('curator');
  socket = await connectAs(server.url, curator.client);
  work = mkdtempSync(join(tmpdir(), 'hqa-upload-limits-'));
  bomb = await zipFolder(CHARTQA_SAMPLE, { top: 'bomb', extra: { [BOMB_ENTRY]: Buffer.alloc(BOMB_BYTES, '0') } });
});
afterAll(async () => {
  socket.close();
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

const upload = (client: TestClient, zip: Buffer, query: Record<string, string>) => uploadZip(server.url, client, zip, query);

/** An upload whose body the test sends by hand: part now, the rest (or nothing) later. */
function startUpload(client: TestClient, zip: Buffer, query: Record<string, string>) {
  const req = request(`${server.url}/api/imports?${new URLSearchParams(query).toString()}`, {
    method: 'POST',
    headers: { cookie: client.cookie, 'content-type': 'application/zip', 'content-length': zip.length },
  });
  const answered = new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown }));
    });
    req.on('error', reject);
  });
  return { req, answered };
}

/** Waits until the server has received part of the upload `uploadId` (its first `upload` progress event). */
async function receiving(seen: unknown[], uploadId: string): Promise<void> {
  await expect.poll(() => seen.map((p) => ImportProgressSchema.parse(p)).some((p) => p.upload_id === uploadId && p.phase === 'upload')).toBe(true);
}

/** Bytes of every file under `dir`, as they are on disk now. */
function bytesUnder(dir: string): number {
  return readdirSync(dir).reduce((sum, name) => {
    const path = join(dir, name);
    const stat = lstatSync(path);
    return sum + (stat.isDirectory() ? bytesUnder(path) : stat.size);
  }, 0);
}

/** The temporary upload folders of this process (the test server runs in it). */
const uploadFolders = () => readdirSync(tmpdir()).filter((name) => name.startsWith(`${UPLOAD_FOLDER_PREFIX}${process.pid}-`));

const message = (body: unknown) => ErrorBodySchema.parse(body).error.message;
const splitNames = async () => SplitSummarySchema.array().parse((await curator.client.send(splitsApi.list)).body).map((split) => split.name);

describe('an upload that unpacks past its limits', () => {
  it('is refused on the sizes its entries declare, before a byte of it is unpacked', async () => {
    expect(bomb.length).toBeLessThan(BOMB_BYTES / 500);
    const zipPath = join(work, 'bomb.zip');
    writeFileSync(zipPath, bomb);
    const into = join(work, 'bomb-unpacked');
    await expect(unpackZip(zipPath, into, DEFAULT_ZIP_LIMITS)).rejects.toThrow(/times its size; at most 50 times is unpacked/);
    expect(bytesUnder(into)).toBe(0);

    const res = await upload(curator.client, bomb, { filename: 'bomb.zip' });
    expect(res.status).toBe(400);
    expect(message(res.body)).toMatch(/^zip refused: its entries unpack to 64\.\d MB from a zip of \d+\.\d KB, \d+ times its size; at most 50 times is unpacked \(the upload_max_ratio setting\)$/);
    expect(uploadFolders()).toEqual([]);
    expect(await splitNames()).not.toContain('bomb');
  });

  it('is stopped mid-entry when an entry inflates past the size it declares, having written less than 10 times the zip', async () => {
    const lying = understateSize(bomb, BOMB_ENTRY, 1_000);
    const zipPath = join(work, 'lying.zip');
    writeFileSync(zipPath, lying);
    const into = join(work, 'lying-unpacked');
    await expect(unpackZip(zipPath, into, DEFAULT_ZIP_LIMITS)).rejects.toThrow(`entry "${BOMB_ENTRY}"`);
    const written = bytesUnder(into);
    // The sample's files before it, and of the bomb no more than it declared.
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(10 * lying.length);
    expect(bytesUnder(join(into, 'bomb'))).toBeLessThanOrEqual(bytesUnder(CHARTQA_SAMPLE) + 1_000);

    const res = await upload(curator.client, lying, { filename: 'lying.zip' });
    expect(res.status).toBe(400);
    expect(message(res.body)).toContain(`zip refused: entry "${BOMB_ENTRY}"`);
    expect(uploadFolders()).toEqual([]);
    expect(await splitNames()).not.toContain('bomb');
  });

  it('is refused past the admin’s absolute limit and entry count, the refusal naming the setting', async () => {
    const noise = await zipFolder(CHARTQA_SAMPLE, { top: 'noise', extra: { 'noise/noise.bin': randomBytes(2 * 1024 ** 2) } });
    const sample = await zipFolder(CHARTQA_SAMPLE, { top: 'sample' });
    try {
      expect((await curator.client.send(settingsApi.update, { body: { upload_max_unpacked_mb: 1 } })).status).toBe(403);
      expect((await admin.client.send(settingsApi.update, { body: { upload_max_unpacked_mb: 1 } })).status).toBe(200);
      const big = await upload(curator.client, noise, { filename: 'noise.zip' });
      expect(big.status).toBe(400);
      expect(message(big.body)).toMatch(/^zip refused: its entries unpack to 2\.\d MB \(\d+ bytes\); at most 1\.0 MB is unpacked \(the upload_max_unpacked_mb setting\)$/);

      expect((await admin.client.send(settingsApi.update, { body: { upload_max_unpacked_mb: DEFAULT_UPLOAD_MAX_UNPACKED_MB, upload_max_entries: 5 } })).status).toBe(200);
      const many = await upload(curator.client, sample, { filename: 'sample.zip' });
      expect(many.status).toBe(400);
      expect(message(many.body)).toMatch(/^zip refused: the zip holds \d+ entries; at most 5 are unpacked \(the upload_max_entries setting\)$/);
      expect(uploadFolders()).toEqual([]);
      expect(await splitNames()).not.toContain('noise');
      expect(await splitNames()).not.toContain('sample');
    } finally {
      await admin.client.send(settingsApi.update, { body: { upload_max_unpacked_mb: DEFAULT_UPLOAD_MAX_UNPACKED_MB, upload_max_entries: DEFAULT_UPLOAD_MAX_ENTRIES, upload_max_ratio: DEFAULT_UPLOAD_MAX_RATIO } });
    }
    // Back under the defaults, the same zip imports.
    expect((await upload(curator.client, sample, { filename: 'sample.zip' })).status).toBe(200);
  });
});

describe('uploads at once', () => {
  it('unpacks one at a time: a second is refused naming the one in progress, and goes through once that is done', async () => {
    const first = await zipFolder(CHARTQA_SAMPLE, { top: 'first' });
    const second = await zipFolder(CHARTQA_SAMPLE, { top: 'second' });
    const seen = recordEvents(socket, 'import.progress');
    const running = startUpload(curator.client, first, { filename: 'first.zip', split: 'first', upload_id: 'u-first' });
    running.req.write(first.subarray(0, 1_000));
    await receiving(seen, 'u-first');

    const refused = await upload(admin.client, second, { filename: 'second.zip' });
    expect(refused.status).toBe(409);
    expect(message(refused.body)).toMatch(new RegExp(`^another upload is being unpacked and imported: "first\\.zip" from ${curator.username}, since \\d\\d:\\d\\d:\\d\\d UTC\\. One upload at a time: try again when it is done\\.$`));

    running.req.end(first.subarray(1_000));
    const done = await running.answered;
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(ImportUploadResultSchema.parse(done.body).report.split).toBe('first');

    const retried = await upload(admin.client, second, { filename: 'second.zip', split: 'second' });
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(ImportUploadResultSchema.parse(retried.body).report.split).toBe('second');
  });

  it('an upload cut off mid-body leaves no temporary folder and frees the slot', async () => {
    const zip = await zipFolder(CHARTQA_SAMPLE, { top: 'cut' });
    const seen = recordEvents(socket, 'import.progress');
    const cut = startUpload(curator.client, zip, { filename: 'cut.zip', upload_id: 'u-cut' });
    cut.answered.catch(() => undefined);
    cut.req.write(zip.subarray(0, 1_000));
    await receiving(seen, 'u-cut');
    expect(uploadFolders()).toHaveLength(1);
    cut.req.destroy();
    await expect.poll(() => uploadFolders()).toEqual([]);
    await expect.poll(async () => (await upload(curator.client, zip, { filename: 'cut.zip' })).status).toBe(200);
  });
});

describe('temporary folders at start', () => {
  it('removes the upload folders of processes that are gone and its own process’s unheld ones, and keeps a live process’s', async () => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const folder = (pid: number) => {
      const path = mkdtempSync(join(tmpdir(), `${UPLOAD_FOLDER_PREFIX}${pid}-`));
      writeFileSync(join(path, 'upload.zip'), 'left behind');
      return path;
    };
    const crashed = folder(gone);
    const ownUnheld = folder(process.pid);
    // The test runner's parent process is alive: its folder may be an upload in progress.
    const live = folder(process.ppid);
    const started = await startTestServer({ demo: false });
    try {
      expect(existsSync(crashed)).toBe(false);
      expect(existsSync(ownUnheld)).toBe(false);
      expect(existsSync(live)).toBe(true);
    } finally {
      await started.close();
      rmSync(live, { recursive: true, force: true });
    }
  });
});
