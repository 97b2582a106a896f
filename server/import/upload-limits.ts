import { statfsSync } from 'node:fs';
import type { Settings } from '../../shared/settings';
import { formatBytes } from './input-file-error';
import { MAX_ENTRY_BYTES, type ZipLimitKind, type ZipLimits } from './zip-archive';

/**
 * An upload may fill at most this share of the space free where it is unpacked: the database,
 * its WAL and the rest of the machine need the other half.
 */
export const FREE_SPACE_SHARE = 0.5;

export interface UploadLimits {
  limits: ZipLimits;
  /** Where each limit comes from, for a refusal to say. */
  setBy: Partial<Record<ZipLimitKind, string>>;
}

type UploadSettings = Pick<Settings, 'upload_max_unpacked_mb' | 'upload_max_ratio' | 'upload_max_entries'>;

/** The limits an upload is unpacked under: the admin's settings, the absolute one lowered to a share of `freeBytes` when the disk has less. */
export function uploadLimits(settings: UploadSettings, freeBytes: number): UploadLimits {
  const bySetting = settings.upload_max_unpacked_mb * 1024 ** 2;
  const byDisk = Math.floor(freeBytes * FREE_SPACE_SHARE);
  const diskDecides = byDisk < bySetting;
  return {
    limits: {
      maxEntries: settings.upload_max_entries,
      maxUnpackedBytes: diskDecides ? byDisk : bySetting,
      maxRatio: settings.upload_max_ratio,
      maxEntryBytes: MAX_ENTRY_BYTES,
    },
    setBy: {
      maxEntries: 'the upload_max_entries setting',
      maxUnpackedBytes: diskDecides ? `half the ${formatBytes(freeBytes)} free on the temporary folder's disk` : 'the upload_max_unpacked_mb setting',
      maxRatio: 'the upload_max_ratio setting',
    },
  };
}

/** Bytes free to this process on the disk holding `dir`. */
export function freeBytesAt(dir: string): number {
  const stats = statfsSync(dir);
  return stats.bavail * stats.bsize;
}
