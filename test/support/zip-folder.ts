import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import yazl from 'yazl';

/** Every file under `dir`, as paths relative to it with `/`, in name order. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      const relative = prefix ? `${prefix}/${name}` : name;
      return statSync(path).isDirectory() ? filesUnder(path, relative) : [relative];
    });
}

/**
 * A real zip of `dir` (built by yazl, as an archiver would), its files under `top/` when
 * given, `filter` choosing which, and `extra` entries (name → content) added as they are.
 */
export function zipFolder(dir: string, options: { top?: string; filter?: (path: string) => boolean; extra?: Record<string, string | Buffer> } = {}): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const file of filesUnder(dir).filter(options.filter ?? (() => true))) {
    zip.addFile(join(dir, file), options.top ? `${options.top}/${file}` : file);
  }
  for (const [name, content] of Object.entries(options.extra ?? {})) zip.addBuffer(typeof content === 'string' ? Buffer.from(content) : content, name);
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/**
 * The same zip with one entry's name replaced byte for byte (same length) in its local header
 * and the central directory: how a hostile archive names `../x`, which yazl itself refuses to write.
 */
export function renameEntry(zip: Buffer, from: string, to: string): Buffer {
  if (Buffer.byteLength(from) !== Buffer.byteLength(to)) throw new Error('renameEntry: names must be the same length');
  const out = Buffer.from(zip);
  const needle = Buffer.from(from);
  let at = out.indexOf(needle);
  let count = 0;
  while (at !== -1) {
    Buffer.from(to).copy(out, at);
    count++;
    at = out.indexOf(needle, at + needle.length);
  }
  if (count === 0) throw new Error(`renameEntry: no entry named ${from}`);
  return out;
}

const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

/**
 * The same zip with `name`'s uncompressed size given as `size` in its local header and the
 * central directory, its data left as it is: how a hostile archive hides what it inflates to
 * (yazl writes true sizes). The zip must be without zip64 records, as yazl makes small ones.
 */
export function understateSize(zip: Buffer, name: string, size: number): Buffer {
  const out = Buffer.from(zip);
  const wanted = Buffer.from(name);
  let patched = 0;
  for (let at = 0; at + 46 <= out.length; at++) {
    const signature = out.readUInt32LE(at);
    if (signature === CENTRAL_HEADER && out.subarray(at + 46, at + 46 + out.readUInt16LE(at + 28)).equals(wanted)) {
      out.writeUInt32LE(size, at + 24);
      patched++;
    } else if (signature === LOCAL_HEADER && out.subarray(at + 30, at + 30 + out.readUInt16LE(at + 26)).equals(wanted)) {
      // Zero when the sizes follow the data in a descriptor (general purpose bit 3); readers take the central directory's.
      if (out.readUInt32LE(at + 22) !== 0) out.writeUInt32LE(size, at + 22);
      patched++;
    }
  }
  if (patched !== 2) throw new Error(`understateSize: expected a local and a central header for ${name}, patched ${patched}`);
  return out;
}
