import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAndMigrate, type Db } from '../../db/database';
import { buildChart, buildQa, buildStoredItem } from '../../test/support/factories';
import { getEvalRun, insertEvalQuestions, insertEvalRun, publicEvalRun, recordAnswer, transitionEvalRun } from './eval-queries';
import { LIVE_RULE_REFRESH_MS, runRuleAccuracies } from './rule-figures';

let db: Db;
beforeEach(() => {
  db = openAndMigrate(':memory:');
});
afterEach(() => db.close());

/** A run of four questions, three answered so that the rules count 2, 2 and 1 right (see each line). */
function answeredRun(): { runId: number; itemIds: number[] } {
  const chartId = buildChart(db);
  const golds = ['100', '100', 'Yes', '7'];
  const itemIds = golds.map(() => buildStoredItem(db, { qaId: buildQa(db, { chartId }), chartId }));
  const runId = insertEvalRun(db, { model: 'm', engine: 'imported', mode: 'hqa', concurrency: 1, status: 'running', createdBy: null });
  insertEvalQuestions(
    db,
    runId,
    itemIds.map((itemId, position) => ({ item_id: itemId, condition: 'hqa' as const, position, question: 'q', gold: golds[position] ?? '', answer_type: 'integer', affects_answer: true, original_label: '1', question_relation: 'same' })),
  );
  // 95 for 100: chartqa only (5% of the gold, 5.26% of the prediction). 105.1: qwen-vl and chartbench (4.85% of the prediction).
  // "Yes": chartqa and qwen-vl (ChartBench reads the reply "Y"). The fourth has no prediction.
  const predictions = ['95', '105.1', 'Yes', null];
  itemIds.slice(0, 3).forEach((itemId, index) => {
    recordAnswer(db, runId, { item_id: itemId, condition: 'hqa' }, { failed: false, prediction: predictions[index] ?? null, raw: '', correct: false, biased: false, error: null });
  });
  return { runId, itemIds };
}

const runOf = (runId: number) => {
  const record = getEvalRun(db, runId);
  if (!record) throw new Error(`run ${runId} missing`);
  return publicEvalRun(db, record);
};
const counts = (runId: number, now: number) => runRuleAccuracies(db, runOf(runId), now).map((entry) => [entry.rule, entry.correct, entry.items]);

describe('runRuleAccuracies', () => {
  it('scores the finished questions of a run under every rule, from the stored predictions', () => {
    const { runId } = answeredRun();
    expect(counts(runId, 0)).toEqual([
      ['chartqa', 2, 3],
      ['qwen-vl', 2, 3],
      ['chartbench', 1, 3],
    ]);
    expect(runRuleAccuracies(db, runOf(runId), 0)[0]?.accuracy).toBe(66.67);
  });

  it("refreshes a live run's figures at most every LIVE_RULE_REFRESH_MS, and a finished run's when it ends", () => {
    const { runId, itemIds } = answeredRun();
    expect(counts(runId, 0)[0]).toEqual(['chartqa', 2, 3]);
    recordAnswer(db, runId, { item_id: itemIds[3] ?? 0, condition: 'hqa' }, { failed: false, prediction: '7', raw: '', correct: true, biased: false, error: null });
    // Within the refresh interval the live figures stay; after it they count the new answer.
    expect(counts(runId, LIVE_RULE_REFRESH_MS - 1)[0]).toEqual(['chartqa', 2, 3]);
    expect(counts(runId, LIVE_RULE_REFRESH_MS)[0]).toEqual(['chartqa', 3, 4]);
    // Ending the run changes what they are over: recomputed at once, then kept.
    transitionEvalRun(db, runId, ['running'], 'done');
    db.prepare("UPDATE eval_results SET prediction = '95' WHERE run_id = ? AND item_id = ?").run(runId, itemIds[2] ?? 0);
    expect(counts(runId, LIVE_RULE_REFRESH_MS + 1)[0]).toEqual(['chartqa', 2, 4]);
    db.prepare("UPDATE eval_results SET prediction = 'Yes' WHERE run_id = ? AND item_id = ?").run(runId, itemIds[2] ?? 0);
    expect(counts(runId, 10 * LIVE_RULE_REFRESH_MS)[0]).toEqual(['chartqa', 2, 4]);
  });
});
