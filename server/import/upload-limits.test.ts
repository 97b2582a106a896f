import { describe, expect, it } from 'vitest';
import { SettingsSchema } from '../../shared/settings';
import { uploadLimits } from './upload-limits';

const defaults = SettingsSchema.parse({});
const GiB = 1024 ** 3;

describe('the limits an upload is unpacked under', () => {
  it('are the admin’s settings while the disk has twice the absolute limit free', () => {
    const { limits, setBy } = uploadLimits(defaults, 100 * GiB);
    expect(limits).toMatchObject({ maxUnpackedBytes: 2 * GiB, maxRatio: 50, maxEntries: 100_000 });
    expect(setBy.maxUnpackedBytes).toBe('the upload_max_unpacked_mb setting');
  });

  it('lower the absolute limit to half the free space when the disk has less, and say so', () => {
    const { limits, setBy } = uploadLimits(defaults, 3 * GiB);
    expect(limits.maxUnpackedBytes).toBe(1.5 * GiB);
    expect(setBy.maxUnpackedBytes).toBe("half the 3072.0 MB free on the temporary folder's disk");
  });
});
