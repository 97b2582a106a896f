import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAlive } from '../jobs/job-owner';

/**
 * The temporary folders uploads are received and unpacked in. Each is removed when its upload
 * ends, refused or not; one left by a server that crashed is removed when a server starts. A
 * folder's name carries the pid of the process that made it, so a start removes only folders
 * whose process is gone, or its own process's that no upload holds (a server restarted in a
 * container gets the same pid as the one that crashed): other servers on the machine, and
 * other servers in this process, keep theirs.
 */
export const UPLOAD_FOLDER_PREFIX = 'hqa-upload-';

const OWNED = new RegExp(`^${UPLOAD_FOLDER_PREFIX}(\\d+)-`);

/** The folders uploads in this process hold now (every server of the process). */
const held = new Set<string>();

export interface UploadFolder {
  path: string;
  remove(): void;
}

export function makeUploadFolder(parent = tmpdir()): UploadFolder {
  const path = mkdtempSync(join(parent, `${UPLOAD_FOLDER_PREFIX}${process.pid}-`));
  held.add(path);
  return {
    path,
    remove() {
      rmSync(path, { recursive: true, force: true });
      held.delete(path);
    },
  };
}


/** Removes the upload folders under `parent` that no live upload holds; returns their paths. */
export function removeStaleUploadFolders(parent = tmpdir()): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(parent)) {
    const pid = Number(OWNED.exec(name)?.[1] ?? Number.NaN);
    if (!Number.isSafeInteger(pid)) continue;
    const path = join(parent, name);
    const stale = pid === process.pid ? !held.has(path) : !isAlive(pid);
    if (!stale) continue;
    rmSync(path, { recursive: true, force: true });
    removed.push(path);
  }
  return removed;
}
