import { createWriteStream, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { formatsIn } from './detect-format';

/**
 * Unpacking an uploaded split. A zip names its own paths and sizes, so each is checked before
 * anything is written: no entry outside the target folder (zip-slip: `../`, absolute paths,
 * links), and limits on entries and on bytes unpacked (a zip bomb declares small and inflates
 * huge; yauzl also refuses an entry whose data inflates past the size it declared).
 */
export interface ZipLimits {
  maxEntries: number;
  /** Bytes of all entries once unpacked. */
  maxUnpackedBytes: number;
  /** Bytes of one entry once unpacked. */
  maxEntryBytes: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 200_000,
  maxUnpackedBytes: 4 * 1024 ** 3,
  maxEntryBytes: 512 * 1024 ** 2,
};

/** The zip is refused as a whole (nothing of it is imported): its message names the entry. */
export class ZipRefusedError extends Error {}

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
    yauzl.open(path, { lazyEntries: true, decodeStrings: true, validateEntrySizes: true, autoClose: true }, (error, zip) => (error ? fail(error) : ok(zip)));
  });
}

function readStream(zip: ZipFile, entry: Entry): Promise<NodeJS.ReadableStream> {
  return new Promise((ok, fail) => zip.openReadStream(entry, (error, stream) => (error ? fail(error) : ok(stream))));
}

/** Counts bytes as they are written, refusing past the total limit (declared sizes are checked first; this holds on the way). */
function byteCounter(state: { unpacked: number }, limits: ZipLimits, name: string): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      state.unpacked += chunk.length;
      if (state.unpacked > limits.maxUnpackedBytes) done(new ZipRefusedError(`entry "${name}": the zip unpacks to more than ${limits.maxUnpackedBytes} bytes`));
      else done(null, chunk);
    },
  });
}

/**
 * Unpacks `zipPath` into `into` (created), entry by entry, checking each first. Calls
 * `onProgress(entries done, entries in all)`. Any refusal stops it with a ZipRefusedError
 * (the caller removes the folder).
 */
export async function unpackZip(zipPath: string, into: string, limits: ZipLimits = DEFAULT_ZIP_LIMITS, onProgress?: (done: number, total: number) => void): Promise<{ entries: number; bytes: number }> {
  mkdirSync(into, { recursive: true });
  const folder = resolve(into);
  let zip: ZipFile;
  try {
    zip = await openZip(zipPath);
  } catch (error) {
    throw new ZipRefusedError(`not a readable zip: ${(error as Error).message}`);
  }
  const total = zip.entryCount;
  if (total > limits.maxEntries) {
    zip.close();
    throw new ZipRefusedError(`the zip holds ${total} entries; at most ${limits.maxEntries} are unpacked`);
  }
  const state = { unpacked: 0, declared: 0, done: 0 };
  return new Promise((ok, fail) => {
    const stop = (error: unknown) => {
      zip.close();
      // yauzl's own refusals ("invalid relative path: ../x", a size mismatch) name the entry too.
      fail(error instanceof ZipRefusedError ? error : new ZipRefusedError((error as Error).message));
    };
    zip.on('error', stop);
    zip.on('end', () => ok({ entries: state.done, bytes: state.unpacked }));
    zip.on('entry', (entry: Entry) => {
      void (async () => {
        const refusal = entryRefusal(entry, folder);
        if (refusal !== null) throw new ZipRefusedError(refusal);
        if (entry.uncompressedSize > limits.maxEntryBytes) throw new ZipRefusedError(`entry "${entry.fileName}" unpacks to ${entry.uncompressedSize} bytes; at most ${limits.maxEntryBytes} per file`);
        state.declared += entry.uncompressedSize;
        if (state.declared > limits.maxUnpackedBytes) throw new ZipRefusedError(`entry "${entry.fileName}": the zip unpacks to more than ${limits.maxUnpackedBytes} bytes`);
        const target = join(folder, entry.fileName);
        if (entry.fileName.endsWith('/')) {
          mkdirSync(target, { recursive: true });
        } else {
          mkdirSync(dirname(target), { recursive: true });
          await pipeline(await readStream(zip, entry), byteCounter(state, limits, entry.fileName), createWriteStream(target, { flags: 'wx' }));
        }
        state.done++;
        onProgress?.(state.done, total);
        zip.readEntry();
      })().catch(stop);
    });
    zip.readEntry();
  });
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
