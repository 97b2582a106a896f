import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Vite warns past 500 kB (its chunkSizeWarningLimit, counted in 1000-byte kB); `npm test` builds
// before the suite, so a chunk that grows past it fails here instead of scrolling by in the log.
const WARNING_LIMIT_BYTES = 500 * 1000;
const assets = resolve('dist/client/assets');

describe('client build', () => {
  it('has no chunk past the size that makes Vite warn', () => {
    const chunks = readdirSync(assets).filter((name) => name.endsWith('.js'));
    expect(chunks.length).toBeGreaterThan(0);
    const oversized = chunks
      .map((name) => ({ name, bytes: statSync(join(assets, name)).size }))
      .filter((chunk) => chunk.bytes > WARNING_LIMIT_BYTES);
    expect(oversized).toEqual([]);
  });
});
