import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../../db/database';
import type { ImportProgress } from '../../shared/api/splits';
import type { ImportFormat } from '../../shared/domain/benchmark-fields';
import type { ImportReport } from '../../shared/api/import';
import { DomainError } from '../domain-error';
import { importFolder } from './import-folder';
import { importFolderOffThread } from './import-thread';
import { ImportSetupError } from './import-split';
import { getSettings } from '../settings/settings-queries';
import { makeUploadFolder } from './upload-folders';
import { freeBytesAt, uploadLimits } from './upload-limits';
import { splitRoot, unpackZip, ZipRefusedError } from './zip-archive';

/** The largest upload read (bytes of the zip itself). */
export const MAX_UPLOAD_BYTES = 1024 ** 3;

/** The upload is past the largest read: refused before (or while) its bytes are read. */
export class UploadTooLargeError extends DomainError {
  constructor(message: string) {
    super('payload_too_large', message);
  }
}

export interface BrowserImportOptions {
  format?: ImportFormat;
  split?: string;
  /** The uploaded file's name: `test.zip` unpacks into `test/`, which names a ChartQA split without question files. */
  filename?: string;
  /** Content-Length, when the client sent one. */
  length?: number;
  maxUploadBytes?: number;
  /** The database file: the import then runs on a worker thread with its own connection (the server's loop stays free, progress is live). */
  dbPath?: string;
  /** Who uploads, for the audit log. */
  actorId?: number;
  onProgress?: (progress: Omit<ImportProgress, 'upload_id'>) => void;
}

/** A folder name from the uploaded file's name, kept to what split names allow. */
function folderName(filename: string | undefined): string {
  const stem = (filename ?? '').replace(/^.*[\\/]/, '').replace(/\.zip$/i, '').replace(/[^\w.-]+/g, '_').replace(/^\.+$/, '');
  return stem.slice(0, 100) || 'upload';
}

/** Reports a phase's progress at most once per percent, plus its last step (socket events are for a bar, not a log). */
function throttled(report: BrowserImportOptions['onProgress'], phase: ImportProgress['phase']): (done: number, total: number | null) => void {
  let lastShown = -1;
  return (done, total) => {
    if (!report) return;
    const step = total ? Math.floor((done * 100) / total) : Math.floor(done / (1024 * 1024));
    if (step === lastShown && done !== total) return;
    lastShown = step;
    report({ phase, done, total });
  };
}

function uploadCounter(limit: number, progress: (done: number) => void): Transform {
  let received = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      if (received > limit) return done(new UploadTooLargeError(`the upload is larger than ${limit} bytes`));
      progress(received);
      done(null, chunk);
    },
  });
}

/**
 * A split uploaded from the browser as a `.zip`: streamed to a temporary folder, unpacked
 * with zip-slip and size checks (`unpackZip`, under the upload settings and the disk's free
 * space), imported by the same `importFolder` as `hqa import` (same report and per-file
 * errors; the zip's own folder is `--images`), and the temporary folder removed, whether the
 * upload succeeded or not.
 */
export async function importUploadedZip(db: Db, body: Readable, options: BrowserImportOptions = {}): Promise<{ format: ImportFormat; report: ImportReport }> {
  const maxUpload = options.maxUploadBytes ?? MAX_UPLOAD_BYTES;
  if (options.length !== undefined && options.length > maxUpload) throw new UploadTooLargeError(`the upload is ${options.length} bytes; at most ${maxUpload} are read`);
  const work = makeUploadFolder();
  try {
    const zipPath = join(work.path, 'upload.zip');
    const uploaded = throttled(options.onProgress, 'upload');
    await pipeline(body, uploadCounter(maxUpload, (done) => uploaded(done, options.length ?? null)), createWriteStream(zipPath));
    const unpacked = join(work.path, 'files', folderName(options.filename));
    // Measured now, with the zip on the disk: the space left is what unpacking may use.
    const { limits, setBy } = uploadLimits(getSettings(db), freeBytesAt(work.path));
    try {
      await unpackZip(zipPath, unpacked, limits, throttled(options.onProgress, 'unzip'));
    } catch (error) {
      // The curator reads where the limit is set (an admin's setting, or the disk).
      const source = error instanceof ZipRefusedError && error.limit !== undefined ? setBy[error.limit] : undefined;
      throw source === undefined ? error : new ZipRefusedError(`${(error as ZipRefusedError).reason} (${source})`, (error as ZipRefusedError).limit);
    }
    const root = splitRoot(unpacked);
    const imported = throttled(options.onProgress, 'import');
    const folderOptions = {
      // ChartBench's and CharXiv's images are not in their repositories, so the CLI takes them
      // from --images; an upload has only the zip, whose images sit beside the question files
      // (ChartBench: each record's `image` path; CharXiv: `images/<figure_id>.jpg`). The other
      // formats read their images from their own layout and ignore this.
      images: root,
      // Its messages name the form's fields, not the command line's flags.
      audience: 'form' as const,
      ...(options.format ? { format: options.format } : {}),
      ...(options.split ? { split: options.split } : {}),
      ...(options.actorId !== undefined ? { actorId: options.actorId } : {}),
    };
    try {
      if (options.dbPath !== undefined) return await importFolderOffThread({ dbPath: options.dbPath, dir: root, options: folderOptions }, imported);
      return importFolder(db, root, { ...folderOptions, onProgress: imported });
    } catch (error) {
      // The temporary folder means nothing to the curator: name the zip instead.
      if (error instanceof ImportSetupError) throw new ImportSetupError(error.message.split(root).join(options.filename ?? 'the zip'));
      throw error;
    }
  } finally {
    work.remove();
  }
}
