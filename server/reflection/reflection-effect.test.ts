import { describe, expect, it } from 'vitest';
import { classEffect, FEEDBACK_CLASSES } from '../../test/support/reflection-effect';

/**
 * A revision changes what comes next: for each class of reviewers' feedback, a proposal rejected
 * in that class's words is revised with a constraint, and the offline rules then make items over
 * the demo's charts that no longer show the fault — items, not none (`npm run bench:reflection-effect`
 * prints the shares before and after).
 */
describe('items from a revised proposal no longer show the fault its rejection named', () => {
  it.each(FEEDBACK_CLASSES.map((feedbackClass) => [feedbackClass.rule, feedbackClass] as const))('%s', (_rule, feedbackClass) => {
    const effect = classEffect(feedbackClass);
    expect(effect.after.items, effect.revised).toBeGreaterThan(0);
    expect(effect.after.faulty, effect.revised).toBe(0);
  });

  it('the classes where the rules could err before do err before: the test can fail', () => {
    // (Naming the answer as the leader's swap partner is refused by the checks themselves now, before any reflection.)
    const erring = FEEDBACK_CLASSES.filter((feedbackClass) => ['implausible_change', 'states_answer'].includes(feedbackClass.rule));
    for (const feedbackClass of erring) expect(classEffect(feedbackClass).before.faulty, feedbackClass.rule).toBeGreaterThan(0);
  });
});
