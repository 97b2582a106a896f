import { describe, expect, it } from 'vitest';
import type { EvalMode, EvalRun, EvalRunStatus } from '../api/evaluations';
import { baselineOf, compareModels } from './compare';
import { emptyTypeCounts, measureCounts, roundScore } from './metrics';

/**
 * A run with `correct` of `items` right, all of one answer type; `same` (default: every
 * question) are the factual question under an assumption, `sameCorrect` of them right.
 */
function run(
  id: number,
  model: string,
  mode: EvalMode,
  correct: number,
  items: number,
  status: EvalRunStatus = 'done',
  same: { items: number; correct: number } = { items, correct },
): EvalRun {
  const byType = emptyTypeCounts();
  byType.integer = { items, correct };
  const score = roundScore(
    measureCounts({
      items,
      predicted: items,
      missing: 0,
      correct,
      by_answer_type: byType,
      affects_answer: 0,
      biased: 0,
      same_question: same.items,
      same_correct: same.correct,
      unknown_predictions: 0,
    }),
  );
  return {
    id,
    model,
    engine: 'imported',
    mode,
    conditions: [{ condition: mode, items_total: items, items_skipped: 0, score }],
    gaps: [],
    status,
    concurrency: 1,
    batch: false,
    batch_progress: null,
    items_total: items,
    items_skipped: 0,
    items_answered: items,
    items_failed: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
    cost: 0,
    error: null,
    created_by: null,
    created_at: '2026-01-01T00:00:00Z',
    finished_at: null,
    score,
  };
}

describe('compareModels', () => {
  it('takes each model’s latest finished run per mode and derives the decline rate from unrounded accuracies', () => {
    const rows = compareModels([
      run(1, 'a', 'hqa', 1, 3),
      run(2, 'a', 'original', 2, 3),
      run(3, 'a', 'hqa', 2, 3),
      run(4, 'a', 'hqa', 0, 3, 'cancelled'),
      run(5, 'a', 'no_image', 1, 3),
      run(6, 'b', 'original', 3, 3),
      run(7, 'c', 'hqa', 3, 3, 'running'),
    ]);
    // b has no hqa run, c none finished.
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ model: 'a', hqa_run_id: 3, original_run_id: 2, no_image_run_id: 5, hqa_accuracy: 66.67, qa_accuracy: 66.67, decline_rate: 0 });
    // 1/3 vs 2/3: the decline rate is exactly 50, not (66.67 − 33.33) / 66.67 = 50.0075.
    const [halved] = compareModels([run(1, 'a', 'hqa', 1, 3), run(2, 'a', 'original', 2, 3)]);
    expect(halved?.decline_rate).toBe(50);
    expect(halved?.no_image_accuracy).toBeNull();
  });

  it('derives the decline rate from the same questions of both runs and says how many were left out', () => {
    // HQA: 2 of 4 right, of its 3 same questions 2 right; factual: all right.
    const hqa = run(1, 'a', 'hqa', 2, 4, 'done', { items: 3, correct: 2 });
    const original = run(2, 'a', 'original', 4, 4, 'done', { items: 3, correct: 3 });
    const [row] = compareModels([hqa, original]);
    // Accuracy stays over every question: 50 and 100.
    expect(row).toMatchObject({ hqa_accuracy: 50, qa_accuracy: 100, left_out_different: 1 });
    // |100 − 200/3| / 100 × 100; over every question it would be 50.
    expect(row?.decline_rate).toBe(33.33);
    expect(baselineOf(hqa, [hqa, original])).toEqual({ run_id: 2, qa_accuracy: 100, decline_rate: 33.33 });
  });

  it('orders models by HQA accuracy, best first', () => {
    const rows = compareModels([run(1, 'weak', 'hqa', 1, 4), run(2, 'strong', 'hqa', 3, 4), run(3, 'mid', 'hqa', 2, 4)]);
    expect(rows.map((r) => r.model)).toEqual(['strong', 'mid', 'weak']);
  });

  it('a hypothetical run’s baseline is the same model’s latest finished factual run; none for factual runs', () => {
    const runs = [run(1, 'a', 'original', 4, 4), run(2, 'a', 'original', 2, 4), run(3, 'a', 'hqa', 1, 4), run(4, 'b', 'original', 4, 4)];
    expect(baselineOf(runs[2] as EvalRun, runs)).toEqual({ run_id: 2, qa_accuracy: 50, decline_rate: 50 });
    expect(baselineOf(runs[0] as EvalRun, runs)).toBeNull();
    expect(baselineOf(run(9, 'z', 'hqa', 1, 4), runs)).toBeNull();
  });
});
