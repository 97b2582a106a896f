import { nlp } from '../../language/nlp';
import { formatNumber } from '../../../shared/table/program';

/** Words and numbers as the offline engine writes them into assumptions, questions and programs. */

/** A label as a sentence shows it: bare when it reads as a name, quoted when it could be misread. */
export function nameOf(label: string): string {
  const shown = withoutFootnote(label);
  const plain = /^[\p{L}\p{N}][\p{L}\p{N} .&()'/+-]*$/u.test(shown) && shown.trim().split(/\s+/).length <= 4;
  return plain && !/^(yes|no)$/i.test(shown.trim()) ? shown : `"${shown}"`;
}

/**
 * A label as prose and answers write it: Statista's footnote marks ("2018*", "London**") belong
 * to the chart's fine print, not to the name. Edits and programs keep the exact label.
 */
export function withoutFootnote(label: string): string {
  const plain = label.replace(/\s*\*+$/, '');
  return plain === '' ? label : plain;
}

/** A label or text as a program string literal. */
export function literal(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** A number as the answer formatter writes it: at most 4 decimals, no trailing zeros. */
export function fmt(value: number): string {
  return formatNumber(value);
}

export function roundTo(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  const rounded = Math.round(Math.abs(value) * scale) / scale;
  return value < 0 ? -rounded : rounded;
}

/** "doubled", "halved", "increased by 20%". */
export function factorPhrase(factor: number): string {
  const named: Record<string, string> = { '2': 'doubled', '3': 'tripled', '4': 'quadrupled', '0.5': 'halved' };
  const word = named[String(factor)];
  if (word) return word;
  if (Math.abs(Math.abs(factor - 1) - 1 / 3) < 1e-9) return factor > 1 ? 'increased by a third' : 'decreased by a third';
  const percent = fmt(roundTo(Math.abs(factor - 1) * 100, 2));
  return factor > 1 ? `increased by ${percent}%` : `decreased by ${percent}%`;
}

/** A positive amount a person would pick: one significant digit, within the column's precision, never zero. */
export function niceAmount(size: number, decimals: number): number {
  const smallest = 10 ** -decimals;
  if (!(size > smallest)) return smallest;
  const magnitude = 10 ** Math.floor(Math.log10(size));
  return Math.max(roundTo(Math.round(size / magnitude) * magnitude, decimals), smallest);
}

/** The roundest number strictly between lo and hi (lo < hi), or null when they are too close. */
export function niceBetween(lo: number, hi: number): number | null {
  const gap = hi - lo;
  if (!(gap > 0)) return null;
  for (let k = Math.ceil(Math.log10(gap)); k >= -4; k--) {
    const step = 10 ** k;
    const candidate = roundTo((Math.floor(lo / step) + 1) * step, Math.max(0, -k));
    // A margin, so the program's 1e-9 tolerance on comparisons never decides.
    const margin = gap * 1e-6;
    if (candidate > lo + margin && candidate < hi - margin) return candidate;
  }
  return null;
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The plural of a table's noun ("criterion" → "criteria", "country" → "countries") by
 * compromise's inflection; the spelling rules cover words it does not read as a noun alone.
 */
export function plural(noun: string): string {
  const inflected = nlp(noun).nouns().toPlural().text();
  if (inflected !== '') return inflected;
  if (/[^aeiou]y$/.test(noun)) return noun.replace(/y$/, 'ies');
  if (/(s|x|ch|sh)$/.test(noun)) return `${noun}es`;
  return `${noun}s`;
}
