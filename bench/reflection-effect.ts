import { classEffect, FEEDBACK_CLASSES } from '../test/support/reflection-effect';

/**
 * Whether reflection changes what comes next: per class of reviewers' feedback, the share of
 * the offline rules' items with that fault on the demo's charts, before and after the proposal
 * is revised from one rejection in that class's words.
 *   npm run bench:reflection-effect
 */
for (const feedbackClass of FEEDBACK_CLASSES) {
  const effect = classEffect(feedbackClass);
  const share = (part: { items: number; faulty: number }) => `${part.faulty}/${part.items}${part.items > 0 ? ` (${Math.round((100 * part.faulty) / part.items)}%)` : ''}`;
  console.log(`${effect.rule}: faulty before ${share(effect.before)}, after ${share(effect.after)}`);
  console.log(`  "${feedbackClass.proposal.text}" → "${effect.revised}"`);
}
