/**
 * Agreement between reviewers on a pass/fail criterion, over items with at least two reviews.
 * Each item is the list of its reviewers' verdicts (true = pass).
 *
 * - Percent agreement: the share of agreeing rater pairs, averaged over items (Fleiss' P̄).
 * - Fleiss' kappa: (P̄ − P̄e) / (1 − P̄e), with P̄e from the pooled category shares. Items may
 *   have different numbers of reviews (P_i uses each item's own n_i). When every verdict is
 *   the same category P̄e = 1 and kappa is undefined: null.
 */
export interface Agreement {
  items: number;
  percent_agreement: number | null;
  fleiss_kappa: number | null;
}

export function agreement(itemsVerdicts: readonly (readonly boolean[])[]): Agreement {
  return agreementOfCounts(itemsVerdicts.map((verdicts) => ({ reviews: verdicts.length, passes: verdicts.filter(Boolean).length })));
}

/**
 * The same figures from each item's number of reviews and of passes, which is all they depend
 * on: the server counts these in SQL instead of loading every verdict.
 */
export function agreementOfCounts(itemCounts: readonly { readonly reviews: number; readonly passes: number }[]): Agreement {
  const items = itemCounts.filter((item) => item.reviews >= 2);
  if (items.length === 0) return { items: 0, percent_agreement: null, fleiss_kappa: null };
  let sumP = 0;
  let passes = 0;
  let total = 0;
  for (const { reviews: n, passes: pass } of items) {
    const fail = n - pass;
    sumP += (pass * pass + fail * fail - n) / (n * (n - 1));
    passes += pass;
    total += n;
  }
  const pBar = sumP / items.length;
  const pPass = passes / total;
  const pe = pPass * pPass + (1 - pPass) * (1 - pPass);
  return {
    items: items.length,
    percent_agreement: pBar * 100,
    fleiss_kappa: pe >= 1 ? null : (pBar - pe) / (1 - pe),
  };
}
