import { parseCellValue } from './cell';

/**
 * Writing a number back into a cell's raw text after an edit. The raw text is what reviewers
 * and the chart renderer see, so an edited cell should look like its neighbours: same unit,
 * same currency sign, thousands separators if the column used them.
 */
export interface ColumnStyle {
  percent: boolean;
  currency: string;
  thousands: boolean;
  decimals: number;
}

/** Edited values keep at least this many decimals, so `5 * 1.5` is not shown as `8`. */
const MIN_EDIT_DECIMALS = 2;
/** And at most this many, so floating-point noise (`0.30000000000000004`) never reaches a cell. */
const MAX_EDIT_DECIMALS = 10;

/** The formatting habits of one column, read from its raw cells. */
export function columnStyle(raws: readonly string[]): ColumnStyle {
  let percent = false;
  let currency = '';
  let thousands = false;
  let decimals = 0;
  for (const raw of raws) {
    if (parseCellValue(raw) === null) continue;
    const text = raw.trim().replace(/\*+$/, '');
    if (/%$/.test(text)) percent = true;
    const sign = /^[$€£¥]/.exec(text);
    if (sign && currency === '') currency = sign[0];
    if (/\d,\d{3}/.test(text)) thousands = true;
    const fraction = /\.(\d+)/.exec(text);
    if (fraction?.[1]) decimals = Math.max(decimals, fraction[1].length);
  }
  return { percent, currency, thousands, decimals };
}

/** Formats `value` the way the column writes its numbers; never uses exponent notation below 1e21. */
export function formatCellRaw(value: number, style: ColumnStyle): string {
  const digits = Math.min(Math.max(style.decimals, MIN_EDIT_DECIMALS), MAX_EDIT_DECIMALS);
  // Past 1e15 doubles hold no fraction digits and toFixed prints binary noise; String() prints the shortest form.
  let text = Math.abs(value) >= 1e15 ? String(Math.round(value)) : trimFraction(value.toFixed(digits));
  if (text === '-0') text = '0';
  if (style.thousands && !/e/i.test(text)) text = groupThousands(text);
  const negative = text.startsWith('-');
  const body = negative ? text.slice(1) : text;
  return `${negative ? '-' : ''}${style.currency}${body}${style.percent ? '%' : ''}`;
}

/** Drops trailing fraction zeros and a bare trailing point: `7.50` → `7.5`, `3.00` → `3`. */
export function trimFraction(text: string): string {
  if (!text.includes('.') || /e/i.test(text)) return text;
  return text.replace(/0+$/, '').replace(/\.$/, '');
}

function groupThousands(text: string): string {
  const [whole = '', fraction] = text.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}
