/** A server timestamp in the reader's locale; the raw text if it does not parse. */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** A share already in percent, or a dash when there was nothing to divide. */
export function formatPercent(value: number | null): string {
  return value === null ? '—' : `${value.toFixed(1)} %`;
}

/** "62.5 % (5 / 8)": a pass rate with what it was taken over; "none decided" without one. */
export function formatPassRate(rate: { decided: number; accepted: number; pass_rate: number | null }): string {
  return rate.pass_rate === null ? 'none decided' : `${formatPercent(rate.pass_rate)} (${rate.accepted} / ${rate.decided})`;
}
