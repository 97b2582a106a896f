import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { formatBytes, InputFileError } from './input-file-error';
import { decodeUtf8File } from './utf8-text';

// O_NOFOLLOW: a file swapped for a link after the check is refused rather than followed.
// O_NONBLOCK: opening a FIFO must not hang the import; it is then refused as not a file.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

export interface ReadLimit {
  maxBytes: number;
  /** Plural noun for the size message: "tables may be at most 2.0 MB". */
  kind: string;
}

/**
 * The split folder an import reads, resolved once with realpath. Every file is read only if
 * its own realpath lies inside it: a symbolic link (of the file or of a folder such as
 * `tables/`) that leads out of the split is refused by the file's name; one that stays
 * inside is read. Names are relative to the folder (`tables/x.csv`) and name the file in errors.
 */
export class SplitFolder {
  readonly root: string;

  constructor(dir: string) {
    this.root = realpathSync(dir);
  }

  /** The file's bytes, or null when there is no such file (a link to nothing is an error, not absence). */
  readBytes(name: string, limit: ReadLimit): Buffer | null {
    const real = this.resolveInside(name);
    if (real === null) return null;
    const fd = openSync(real, OPEN_FLAGS);
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) throw new InputFileError(name, 'not a regular file');
      if (stat.size > limit.maxBytes) {
        throw new InputFileError(name, `the file is ${formatBytes(stat.size)}; ${limit.kind} may be at most ${formatBytes(limit.maxBytes)}`);
      }
      return readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  /** The file as UTF-8 text (BOM dropped), or null when there is no such file. */
  readText(name: string, limit: ReadLimit): string | null {
    const bytes = this.readBytes(name, limit);
    return bytes === null ? null : decodeUtf8File(bytes, name);
  }

  private resolveInside(name: string): string | null {
    const path = join(this.root, name);
    let real: string;
    try {
      real = realpathSync(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      if (!existsAsLink(path)) return null;
      throw new InputFileError(name, 'a symbolic link to nothing (its target does not exist)');
    }
    const rel = relative(this.root, real);
    if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
      throw new InputFileError(name, 'leads outside the split folder through a symbolic link; only files inside it are imported');
    }
    return real;
  }
}

function existsAsLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
