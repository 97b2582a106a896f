import { describe, expect, it } from 'vitest';
import type { FeedbackEntry } from '../../shared/api/reflection';
import type { ChartType } from '../../shared/domain/chart-types';
import { applyEdit } from '../../shared/table/edit';
import { demoCharts } from '../demo/demo-charts';
import { offlineItem } from '../generation/offline/offline-item';
import { questionProgram } from '../generation/offline/question-program';
import { boundMagnitude, PLAUSIBLE_PERCENT, reviseFromFeedback, targetAskedElement } from './feedback-rules';
import { CONSTRAINT_CLAUSES } from '../../shared/generation/proposal-constraints';

function rejection(item: number, comment: string, failed: FeedbackEntry['failed'] = ['rationality']): FeedbackEntry {
  return { item_id: item, question: 'q', decision: 'reject', failed, notes: '', comment, correction: '' };
}

const tripled = { text: 'Triple the value of the largest bar, then ask how the ranking changes.', chart_type: 'vertical_bar' as ChartType };

describe('reviseFromFeedback', () => {
  it('revises two proposals with different feedback differently, quoting the feedback it used', () => {
    const implausible = reviseFromFeedback(tripled, [rejection(1, 'Not plausible: tripling a revenue overnight is unrealistic.'), rejection(2, 'Too large a change.')]);
    const unchanged = reviseFromFeedback(tripled, [rejection(3, 'This does not change the answer to the question.'), rejection(4, 'Same answer as before.', ['correctness'])]);
    expect(implausible?.text).toBe(`Raise the value of the largest bar by ${PLAUSIBLE_PERCENT} percent, then ask how the ranking changes, ${CONSTRAINT_CLAUSES.bounded_change}.`);
    expect(implausible?.rules).toEqual(['implausible_change']);
    expect(implausible?.addressed).toMatch(/2 of 2 reviews.*item 1: "Not plausible/);
    expect(unchanged?.text).toBe('Triple the value of the bar the question asks about, then ask how the ranking changes.');
    expect(unchanged?.rules).toEqual(['answer_unchanged']);
    expect(unchanged?.addressed).toMatch(/item 3/);
  });

  it('falls back to the most failed criterion when no rule knows the words, and revises nothing without a failure', () => {
    const layout = reviseFromFeedback({ text: 'Move 5 points from the largest slice to the smallest.', chart_type: 'pie' }, [rejection(1, 'Wrong.', ['layout'])]);
    expect(layout?.text).toMatch(/shares still sum to 100\.$/);
    expect(layout?.addressed).toMatch(/layout failed in 1 of 1/);
    const accepted: FeedbackEntry = { item_id: 1, question: 'q', decision: 'accept', failed: [], notes: '', comment: 'Fine.', correction: '' };
    expect(reviseFromFeedback(tripled, [accepted])).toBeNull();
  });

  it('bounds every way a proposal states its size', () => {
    expect(boundMagnitude('Suppose the largest bar were doubled.')).toBe('Suppose the largest bar were raised by 20 percent.');
    expect(boundMagnitude('Halve the smallest slice and hand the freed share to the median slice.')).toBe(
      'Lower the smallest slice by 20 percent and hand the freed share to the median slice.',
    );
    expect(boundMagnitude('Reduce the median bar by 40 percent.')).toBe('Reduce the median bar by 20 percent.');
    expect(boundMagnitude('Move 15 percentage points from the largest slice to the smallest.')).toBe('Move 5 percentage points from the largest slice to the smallest.');
    expect(boundMagnitude('Let the smallest bar grow by a third.')).toBe('Let the smallest bar grow by a fifth.');
    expect(boundMagnitude('Remove the largest bar.')).toBeNull();
    expect(targetAskedElement('Double the value of the largest bar.')).toBe('Double the value of the bar the question asks about.');
    expect(targetAskedElement('Increase one series by 10 percent.')).toBe('Increase one series by 10 percent, changing the value the question asks about.');
  });
});

describe('items drawn from a revised proposal no longer show the fault (demo charts, offline engine)', () => {
  const charts = [...demoCharts({ charts: 150, seed: 5 })].filter((chart) => chart.type === 'vertical_bar' || chart.type === 'horizontal_bar');

  /** Items the proposal makes for the charts' factual questions, each with the relative size of its change. */
  function itemsOf(text: string) {
    return charts.flatMap((chart, i) =>
      chart.questions.flatMap((qa, q) => {
        const result = offlineItem({ table: chart.table, chartType: chart.type, title: chart.title, qa, proposal: { id: 1, text }, seed: i * 10 + q });
        if (!result.ok) return [];
        const applied = applyEdit(chart.table, result.draft.edit);
        if (!applied.ok) return [];
        // The size of the change the proposal names: its first op's cell (a balancing part of a whole moves by as much, not by as much relatively).
        const first = result.draft.edit[0];
        const primary = applied.changes.filter((c) => first === undefined || !('row' in first) || first.row === undefined || c.row === String(first.row));
        const change = Math.max(...primary.map((c) => (c.before && c.after !== null ? Math.abs(c.after - c.before) / Math.abs(c.before) : 0)));
        const asked = questionProgram(qa.query, qa.label, chart.table, chart.type)?.rows ?? [];
        const touchesAsked = applied.changes.some((c) => asked.includes(c.row));
        return [{ change, touchesAsked, lookup: asked.length > 0 }];
      }),
    );
  }

  it('"not plausible" on a doubled bar: every revised item changes its value by at most 20%', () => {
    // Doubled, not tripled: a bar raised past ×2 is refused by the checks before any reviewer sees it.
    const doubled = { text: 'Double the value of the smallest bar.', chart_type: 'vertical_bar' as ChartType };
    const before = itemsOf(doubled.text);
    const revision = reviseFromFeedback(doubled, [rejection(1, 'Not plausible, far too large a change for this chart.')]);
    const after = itemsOf(revision?.text ?? '');
    expect(before.length).toBeGreaterThan(10);
    expect(before.every((item) => item.change >= 0.99)).toBe(true);
    expect(after.length).toBeGreaterThan(10);
    expect(after.every((item) => item.change <= PLAUSIBLE_PERCENT / 100 + 1e-9)).toBe(true);
  });

  it('"does not change the answer" on a ranked bar: the revised items change the very row the question reads', () => {
    const ranked = { text: 'Double the value of the largest bar.', chart_type: 'vertical_bar' as ChartType };
    const before = itemsOf(ranked.text).filter((item) => item.lookup);
    const revision = reviseFromFeedback(ranked, [rejection(1, "This doesn't change the answer: the question asks about another bar.")]);
    const after = itemsOf(revision?.text ?? '').filter((item) => item.lookup);
    // Before, a question about a row is answerable only when that row happens to be the largest.
    expect(after.length).toBeGreaterThan(before.length * 2);
    expect(after.every((item) => item.touchesAsked)).toBe(true);
  });
});
