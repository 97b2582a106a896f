import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAndMigrate, type Db } from '../../db/database';
import { getQaWithChart } from '../../server/charts/chart-queries';
import { listLlmCalls } from '../../server/llm/llm-call-queries';
import { getProposal } from '../../server/pool/pool-queries';
import { listReflections } from '../../server/reflection/reflection-queries';
import { leaseExpiry, listItemReviews } from '../../server/review/review-queries';
import { userIdByName } from '../../server/users/user-service';
import {
  FAR_FUTURE,
  buildChart,
  buildItem,
  buildLease,
  buildLlmCall,
  buildProposal,
  buildQa,
  buildReflection,
  buildReview,
  buildRun,
  buildStoredItem,
  buildUser,
  copyItem,
} from './factories';

const dir = mkdtempSync(join(tmpdir(), 'hqa-factories-'));
let db: Db;
beforeAll(() => {
  db = openAndMigrate(join(dir, 'hqa.sqlite'));
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const itemRow = (id: number) => db.prepare('SELECT status, proposal_id, question, verifier FROM hqa_items WHERE id = ?').get(id) as { status: string; proposal_id: number | null; question: string; verifier: string };

describe('test factories', () => {
  it('write records the domain reads back, each default distinct from the last', async () => {
    const ann = await buildUser(db, { role: 'curator' });
    const ben = await buildUser(db);
    expect([ann.role, ben.role]).toEqual(['curator', 'reviewer']);
    expect(userIdByName(db, ben.username)).toBe(ben.id);

    const chartId = buildChart(db);
    const qaId = buildQa(db, { chartId, label: '20' });
    expect(getQaWithChart(db, qaId)).toMatchObject({ qa: { label: '20' }, chart: { id: chartId, chart_type: 'vertical_bar' } });
    expect(buildChart(db)).not.toBe(chartId);

    const proposalId = buildProposal(db, { text: 'Double the 2020 sales and ask for the largest value.' });
    expect(getProposal(db, proposalId)).toMatchObject({ status: 'active', origin: 'seed', text: 'Double the 2020 sales and ask for the largest value.' });
    const runId = buildRun(db);
    expect(buildLlmCall(db, { run_id: runId, cost: 0.25 })).toBeGreaterThan(0);
    expect(listLlmCalls(db, { runId })).toMatchObject([{ cost: 0.25, outcome: 'ok', purpose: 'stage2' }]);
    const reflectionId = buildReflection(db, { proposalId, usage: { prompt_tokens: 0, completion_tokens: 0, cost: 0.05 } });
    expect(listReflections(db, proposalId)).toMatchObject([{ id: reflectionId, status: 'done' }]);
    expect(db.prepare('SELECT cost FROM reflections WHERE id = ?').get(reflectionId)).toEqual({ cost: 0.05 });
  });

  it('store a verified item, its review and lease; stored rows and copies for reading tests', async () => {
    const reviewer = await buildUser(db);
    const chartId = buildChart(db);
    const qaId = buildQa(db, { chartId });
    const itemId = buildItem(db, { qaId, draft: { program: 'value("2020")', answer: '20' }, status: 'accepted' });
    const item = itemRow(itemId);
    expect(item.status).toBe('accepted');
    expect(JSON.parse(item.verifier)).toMatchObject({ recomputed_answer: '20', match: true });

    buildReview(db, { itemId, reviewerId: reviewer.id, decision: 'reject', feedback: 'too easy', criteria: { layout: { pass: false, note: '' } } });
    expect(listItemReviews(db, itemId, true)).toMatchObject([{ decision: 'reject', feedback: 'too easy' }]);
    buildLease(db, { itemId, reviewerId: reviewer.id });
    expect(leaseExpiry(db, itemId, reviewer.id)).toBe(FAR_FUTURE);

    const stored = buildStoredItem(db, { qaId, chartId, question: 'Suppose x. Which?' });
    expect(itemRow(stored)).toMatchObject({ status: 'accepted', question: 'Suppose x. Which?', verifier: '{}' });
    const proposalId = buildProposal(db);
    expect(itemRow(copyItem(db, itemId, { proposalId, status: 'rejected' }))).toMatchObject({ status: 'rejected', proposal_id: proposalId, question: item.question });
  });
});
