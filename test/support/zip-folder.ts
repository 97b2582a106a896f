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
