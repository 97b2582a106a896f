import { formatHalfUp, percentHalfUp } from '@shared/eval/decimal-round';

/** Pass rates and agreement are shown to one decimal. */
const PASS_RATE_DECIMALS = 1;

/** A server timestamp in the reader's locale; the raw text if it does not parse. */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** A share already in percent, rounded half-up on its decimal value, or a dash when there was nothing to divide. */
export function formatPercent(value: number | null): string {
  return value === null ? '—' : `${formatHalfUp(value, PASS_RATE_DECIMALS)} %`;
}

/** "62.5 % (5 / 8)": a pass rate with what it was taken over; "none decided" without one. */
export function formatPassRate(rate: { decided: number; accepted: number; pass_rate: number | null }): string {
  // From the counts, so the rate rounds half-up on the exact share.
  const exact = percentHalfUp(rate.accepted, rate.decided, PASS_RATE_DECIMALS);
  return rate.pass_rate === null || exact === null ? 'none decided' : `${exact.toFixed(PASS_RATE_DECIMALS)} % (${rate.accepted} / ${rate.decided})`;
}
