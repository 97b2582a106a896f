import { createWriteStream, mkdirSync, readdirSync, statSync, type WriteStream } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { DEFAULT_UPLOAD_MAX_ENTRIES, DEFAULT_UPLOAD_MAX_RATIO, DEFAULT_UPLOAD_MAX_UNPACKED_MB } from '../../shared/settings';
import { DomainError } from '../domain-error';
import { formatBytes } from './input-file-error';
import { formatsIn } from './detect-format';

/**
 * Unpacking an uploaded split. A zip names its own paths and sizes, so all of them are checked
 * before anything is written: no entry outside the target folder (zip-slip: `../`, absolute
 * paths, links), and limits on entries and on the bytes they declare, absolute and as a
 * multiple of the zip's size (a zip bomb declares huge from small). A zip may also lie about
 * its sizes, so the bytes written are counted on their way to disk, per entry and in all, and
 * the unpacking stops mid-entry at a limit (yauzl also stops an entry that inflates past the
 * size it declared).
 */
export interface ZipLimits {
  maxEntries: number;
  /** Bytes of all entries once unpacked. */
  maxUnpackedBytes: number;
  /** Bytes of all entries once unpacked, as a multiple of the zip file's own size. */
  maxRatio: number;
  /** Bytes of one entry once unpacked. */
  maxEntryBytes: number;
}

/** Real tables, question files and PNGs are KB to a few MB; the largest published file (ChartBench's test.jsonl) is tens of MB. */
export const MAX_ENTRY_BYTES = 512 * 1024 ** 2;

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: DEFAULT_UPLOAD_MAX_ENTRIES,
  maxUnpackedBytes: DEFAULT_UPLOAD_MAX_UNPACKED_MB * 1024 ** 2,
  maxRatio: DEFAULT_UPLOAD_MAX_RATIO,
  maxEntryBytes: MAX_ENTRY_BYTES,
};

/** Which limit refused a zip, so the caller can say where it is set. */
export type ZipLimitKind = keyof ZipLimits;

/** The zip is refused as a whole (nothing of it is imported): `reason` names the entry or the limit. */
export class ZipRefusedError extends DomainError {
  constructor(
    readonly reason: string,
    readonly limit?: ZipLimitKind,
  ) {
    super('bad_request', `zip refused: ${reason}`);
  }
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** Why an entry's name or kind is refused, or null. The folder is resolved, so `a/../../b` is caught too. */
function entryRefusal(entry: Entry, into: string): string | null {
  const name = entry.fileName;
  if (name.includes('\\')) return `entry "${name}": a backslash in a path (zip paths use /)`;
  const target = resolve(into, name);
  const inside = relative(into, target);
  if (inside === '' || inside.startsWith('..') || resolve(into, inside) !== target) return `entry "${name}" would be written outside the folder it is unpacked into (zip-slip)`;
  if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) return `entry "${name}": a symbolic link (links are not unpacked)`;
  if (entry.isEncrypted()) return `entry "${name}": encrypted`;
  return null;
}

function openZip(path: string): Promise<ZipFile> {
  return new Promise((ok, fail) => {
    // Not closed on its own after the last entry is listed: the entries are read in a second pass.
    yauzl.open(path, { lazyEntries: true, decodeStrings: true, validateEntrySizes: true, autoClose: false }, (error, zip) => (error ? fail(error) : ok(zip)));
  });
}

/** Every entry of the central directory, without reading any entry's data. */
function listEntries(zip: ZipFile): Promise<Entry[]> {
  return new Promise((ok, fail) => {
    const entries: Entry[] = [];
    zip.on('error', fail);
    zip.on('entry', (entry: Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    // Left listening: an error after the listing settles nothing, but unheard it would end the process.
    zip.on('end', () => ok(entries));
    zip.readEntry();
  });
}

function readStream(zip: ZipFile, entry: Entry): Promise<NodeJS.ReadableStream> {
  return new Promise((ok, fail) => zip.openReadStream(entry, (error, stream) => (error ? fail(error) : ok(stream))));
}

/**
 * Checks what the zip declares against the limits, before anything is written: the entries'
 * names and kinds, each one's size and their sum, absolute and against the zip's size.
 */
function checkDeclared(entries: Entry[], folder: string, zipBytes: number, limits: ZipLimits): void {
  let declared = 0;
  for (const entry of entries) {
    const refusal = entryRefusal(entry, folder);
    if (refusal !== null) throw new ZipRefusedError(refusal);
    if (entry.uncompressedSize > limits.maxEntryBytes) {
      throw new ZipRefusedError(`entry "${entry.fileName}" unpacks to ${entry.uncompressedSize} bytes; at most ${limits.maxEntryBytes} per file`, 'maxEntryBytes');
    }
    declared += entry.uncompressedSize;
  }
  if (declared > limits.maxUnpackedBytes) {
    throw new ZipRefusedError(`its entries unpack to ${formatBytes(declared)} (${declared} bytes); at most ${formatBytes(limits.maxUnpackedBytes)} is unpacked`, 'maxUnpackedBytes');
  }
  if (declared > limits.maxRatio * zipBytes) {
    const times = Math.floor(declared / Math.max(zipBytes, 1));
    throw new ZipRefusedError(`its entries unpack to ${formatBytes(declared)} from a zip of ${formatBytes(zipBytes)}, ${times} times its size; at most ${limits.maxRatio} times is unpacked`, 'maxRatio');
  }
}

/** What the bytes written may reach: each entry its declared size, all of them `bytes` (`limit` says which setting that is). */
interface WriteBudget {
  bytes: number;
  limit: ZipLimitKind;
}

/**
 * Counts the bytes of one entry on their way to disk and stops them past the size the entry
 * declared or past the zip's budget; `written` holds the zip's running total.
 */
function byteCounter(written: { bytes: number }, entry: Entry, budget: WriteBudget): Transform {
  let entryBytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      entryBytes += chunk.length;
      if (entryBytes > entry.uncompressedSize) return done(new ZipRefusedError(`entry "${entry.fileName}" holds more than the ${entry.uncompressedSize} bytes it declares; refused mid-entry`));
      if (written.bytes + chunk.length > budget.bytes) return done(new ZipRefusedError(`entry "${entry.fileName}": the zip unpacks to more than ${budget.bytes} bytes; refused mid-entry`, budget.limit));
      written.bytes += chunk.length;
      done(null, chunk);
    },
  });
}

/** Writes one entry; a failure leaves the file closed (so the caller can remove the folder) and names the entry. */
async function writeEntry(zip: ZipFile, entry: Entry, target: string, written: { bytes: number }, budget: WriteBudget): Promise<void> {
  let out: WriteStream | null = null;
  try {
    const data = await readStream(zip, entry);
    out = createWriteStream(target, { flags: 'wx' });
    await pipeline(data, byteCounter(written, entry, budget), out);
  } catch (error) {
    // Destroyed by the pipeline with the error: wait for its file to close (once('close') would reject on its 'error').
    const file = out;
    if (file !== null && !file.closed) await new Promise<void>((closed) => file.once('close', () => closed()));
    if (error instanceof ZipRefusedError) throw error;
    // yauzl's own refusals (an entry inflating past its declared size, bad data) do not name it.
    throw new ZipRefusedError(`entry "${entry.fileName}": ${(error as Error).message}`);
  }
}

/**
 * Unpacks `zipPath` into `into` (created): first every entry's name and declared size is
 * checked against `limits` (nothing is written for a zip refused there), then the entries are
 * written one by one, their bytes counted against the same limits. Calls
 * `onProgress(entries done, entries in all)`. Any refusal stops it with a ZipRefusedError; a
 * refusal mid-way leaves what was written (the caller removes the folder).
 */
export async function unpackZip(zipPath: string, into: string, limits: ZipLimits = DEFAULT_ZIP_LIMITS, onProgress?: (done: number, total: number) => void): Promise<{ entries: number; bytes: number }> {
  mkdirSync(into, { recursive: true });
  const folder = resolve(into);
  const zipBytes = statSync(zipPath).size;
  let zip: ZipFile;
  try {
    zip = await openZip(zipPath);
  } catch (error) {
    throw new ZipRefusedError(`not a readable zip: ${(error as Error).message}`);
  }
  try {
    if (zip.entryCount > limits.maxEntries) throw new ZipRefusedError(`the zip holds ${zip.entryCount} entries; at most ${limits.maxEntries} are unpacked`, 'maxEntries');
    let entries: Entry[];
    try {
      entries = await listEntries(zip);
    } catch (error) {
      // yauzl's refusals while listing ("invalid relative path: ../x") name the entry.
      throw new ZipRefusedError((error as Error).message);
    }
    checkDeclared(entries, folder, zipBytes, limits);
    const byRatio = Math.floor(limits.maxRatio * zipBytes);
    const budget: WriteBudget = byRatio < limits.maxUnpackedBytes ? { bytes: byRatio, limit: 'maxRatio' } : { bytes: limits.maxUnpackedBytes, limit: 'maxUnpackedBytes' };
    const written = { bytes: 0 };
    let done = 0;
    for (const entry of entries) {
      const target = join(folder, entry.fileName);
      if (entry.fileName.endsWith('/')) {
        mkdirSync(target, { recursive: true });
      } else {
        mkdirSync(dirname(target), { recursive: true });
        await writeEntry(zip, entry, target, written, budget);
      }
      onProgress?.(++done, entries.length);
    }
    return { entries: done, bytes: written.bytes };
  } finally {
    zip.close();
  }
}

/** Folders that archivers add beside the content (macOS' resource forks). */
const ARCHIVER_CLUTTER = new Set(['__MACOSX', '.DS_Store']);

/**
 * The folder holding the split: a zip of the folder itself (`chartqa-sample/tables/…`) unpacks
 * to one folder, a zip of its contents to the files themselves. Descends through lone folders
 * until one is laid out in a known format (so MultiChartQA's `data/` with one group stays whole).
 */
export function splitRoot(unpacked: string): string {
  if (formatsIn(unpacked).length > 0) return unpacked;
  const names = readdirSync(unpacked).filter((name) => !ARCHIVER_CLUTTER.has(name));
  const only = names[0];
  if (names.length === 1 && only !== undefined && statSync(join(unpacked, only)).isDirectory()) return splitRoot(join(unpacked, only));
  return unpacked;
}
