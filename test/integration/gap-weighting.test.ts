import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunConfigSchema } from '../../shared/api/runs';
import { operationCoverage } from '../../server/generation/gap-weights';
import { putSettings } from '../../server/settings/settings-queries';
import { copyItem, setItemStatus } from '../support/factories';
import { startTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  putSettings(server.server.ctx.db, { auto_reflect: false });
});
afterAll(async () => {
  await server.close();
});

async function run(config: Record<string, unknown>): Promise<number> {
  const { executor } = server.server;
  const created = executor.createRun(RunConfigSchema.parse({ engine: 'offline', stage: 'items', chart_type: 'vertical_bar', ...config }), null);
  await executor.start(created.id);
  return created.id;
}

describe('coverage-steered generation', () => {
  it('draws proposals whose operation has no accepted item before covered ones', async () => {
    const db = server.server.ctx.db;
    // Accept every item of the first run: their proposals' operations are now covered.
    const first = await run({ items: 4 });
    setItemStatus(db, 'accepted', { runId: first });
    const coverage = operationCoverage(db, 'vertical_bar');
    const active = db.prepare("SELECT id, text FROM proposals WHERE chart_type = 'vertical_bar' AND status = 'active'").all() as { id: number; text: string }[];
    const uncovered = new Set(active.filter((p) => coverage(p.text) === 0).map((p) => p.id));
    expect(uncovered.size).toBeGreaterThan(0);
    expect(uncovered.size).toBeLessThan(active.length);

    // Give every uncovered proposal more (rejected) items than the covered ones have, so that
    // plain least-used sampling would pick covered proposals: only the weighting explains the result.
    const template = db.prepare('SELECT id FROM hqa_items WHERE run_id = ? LIMIT 1').get(first) as { id: number };
    for (const id of uncovered) for (let n = 0; n < 3; n++) copyItem(db, template.id, { proposalId: id, status: 'rejected' });

    // What a task draws is the sampling's choice; the offline engine may then make the item with
    // an alternative proposal when the drawn one cannot change that question's answer.
    const drawn = (runId: number) => (db.prepare('SELECT proposal_id FROM run_tasks WHERE run_id = ? AND proposal_id IS NOT NULL').all(runId) as { proposal_id: number }[]).map((r) => r.proposal_id);
    const control = await run({ items: 1 });
    expect(drawn(control)).toHaveLength(1);
    expect(drawn(control).some((id) => uncovered.has(id))).toBe(false);

    // A few QAs: the offline rules make no item for a question the uncovered operations cannot change.
    const weighted = await run({ items: 8, weight_to_gaps: true });
    expect(drawn(weighted).length).toBeGreaterThan(0);
    expect(drawn(weighted).every((id) => uncovered.has(id))).toBe(true);
  });
});
