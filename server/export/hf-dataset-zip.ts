import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import type { Db } from '../../db/database';
import type { DomainEventEmitter } from '../events/event-bus';
import { writeHfDataset } from './hf-dataset-writer';

/** Every file under `dir`, as paths relative to it with `/`, in name order (the zip's order). */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const relative = prefix ? `${prefix}/${name}` : name;
      return statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name), relative) : [relative];
    });
}

/**
 * The Evaluation page's Hugging Face download: the folder `hqa export --format hf-dataset` writes
 * (the same writer, so the same files), built in a temporary folder and streamed as a zip whose
 * entries sit under `<name>/`, then removed. Its `hf_dataset.downloaded` (and audit entry) is emitted once the zip was sent whole.
 */
export async function downloadHfDataset(db: Db, events: DomainEventEmitter, out: Writable, options: { name: string }, actorId: number): Promise<{ items: number; images: number }> {
  const work = mkdtempSync(join(tmpdir(), 'hqa-hf-export-'));
  try {
    const dir = join(work, options.name);
    const { items, images } = await writeHfDataset(db, dir, { name: options.name });
    const zip = new yazl.ZipFile();
    // The zip reads each file as it writes it: a download abandoned mid-way removes the folder
    // under it, and its next read fails. Unheard, that error ended the server; it ends the stream.
    zip.on('error', (error: Error) => (zip.outputStream as Readable).destroy(error));
    // PNGs are compressed already: stored as they are, the zip is made faster and no larger.
    for (const file of filesUnder(dir)) zip.addFile(join(dir, file), `${options.name}/${file}`, { compress: !file.endsWith('.png') });
    zip.end();
    await pipeline(zip.outputStream, out, { end: false });
    events.emit('hf_dataset.downloaded', { actor_id: actorId, name: options.name, items, images });
    return { items, images };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
