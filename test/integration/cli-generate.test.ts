import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GenerateReportSchema } from '../../shared/api/runs';
import { runCli } from '../support/cli';
import { CHARTQA_SAMPLE } from '../support/paths';

const dir = mkdtempSync(join(tmpdir(), 'hqa-cli-gen-'));
const dbPath = join(dir, 'hqa.sqlite');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('hqa generate', () => {
  it('runs the offline engine to the end and prints only the JSON report', async () => {
    expect((await runCli(['import', CHARTQA_SAMPLE, '--json'], { dbPath })).status).toBe(0);
    const result = await runCli(['generate', '--engine', 'offline', '--items', '6', '--proposal-batches', '1', '--json'], { dbPath, env: {} });
    expect(result.stderr).toBe('');
    const report = GenerateReportSchema.parse(JSON.parse(result.stdout));
    expect(report).toMatchObject({ status: 'done', llm_calls: 0, prompt_tokens: 0, cost: 0 });
    expect(report.items_created + report.items_declined + report.items_failed).toBe(6);
    expect(report.items_created).toBeGreaterThan(0);
    expect(report.proposals_created).toBeGreaterThan(0);
  });

  it('names a bad option', async () => {
    const result = await runCli(['generate', '--engine', 'magic', '--json'], { dbPath });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/--engine: /);
    const noKey = await runCli(['generate', '--engine', 'openai', '--json'], { dbPath });
    expect(noKey.stderr).toMatch(/OPENAI_API_KEY/);
  });
});
