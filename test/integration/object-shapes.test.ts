import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'hqa-shapes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * What the review hot path makes on every request keeps one shape in V8, asked of V8 itself in a
 * server process (test/support/object-shapes-probe.mjs). Each of these made a new shape per
 * object before, and those shapes were most of what the young-generation collections promoted:
 * server CPU per saturated request 1.0 -> 0.55 ms, scavenges promoting 2.5 MB -> 45 KB each
 * (bench/review.ts). Breaking any one of them fails its line here.
 */
describe('object shapes on the review hot path', () => {
  it('are shared: objects from {}, write results, item details, requests and responses', async () => {
    const { stdout } = await run(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', resolve('test/support/object-shapes-probe.mjs'), dir], { timeout: 60_000 });
    expect(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}')).toEqual({
      objectsFromEmptyShareAShape: true,
      writeResultsShareAShape: true,
      itemDetailsShareAShape: true,
      requestsShareAShape: true,
      responsesShareAShape: true,
    });
  });
});
