/**
 * Matching row and series labels written by people and LLMs against a table's labels.
 * Names in edits and programs are retyped from a chart image or a prompt, so case, spacing
 * and Statista's footnote marks (`2019/20*`, `Other*`) must not decide whether they match.
 */

/** How many valid labels an error lists before it summarises the rest. */
const MAX_LISTED_LABELS = 40;

/** The comparison form of a label: trimmed, inner spaces collapsed, lowercased, trailing `*` dropped. */
export function normalizeLabel(label: string): string {
  return label
    .trim()
    .replace(/\*+$/, '')
    .trim()
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

/** Whether two labels name the same thing under the tolerant comparison. */
export function labelsMatch(a: string, b: string): boolean {
  return normalizeLabel(a) === normalizeLabel(b);
}

/**
 * The index of `wanted` among `labels`, or -1. An exact match wins over a tolerant one, so a
 * table holding both `2018` and `2018*` still resolves each to itself.
 */
export function findLabelIndex(labels: readonly string[], wanted: string): number {
  const exact = labels.indexOf(wanted);
  if (exact !== -1) return exact;
  const key = normalizeLabel(wanted);
  return labels.findIndex((label) => normalizeLabel(label) === key);
}

/** `"a", "b", "c"` — capped so a 30-row table does not produce a wall of text. */
export function listLabels(labels: readonly string[]): string {
  const shown = labels.slice(0, MAX_LISTED_LABELS).map((label) => JSON.stringify(label));
  const rest = labels.length - shown.length;
  return rest > 0 ? `${shown.join(', ')} and ${rest} more` : shown.join(', ');
}

/** The sentence naming an unknown label and the valid ones, shared by edits, programs and lint. */
export function unknownLabelMessage(kind: 'row' | 'series', wanted: string, labels: readonly string[]): string {
  const plural = kind === 'row' ? 'rows' : 'series';
  if (labels.length === 0) return `unknown ${kind} ${JSON.stringify(wanted)}: the table has no ${plural}`;
  return `unknown ${kind} ${JSON.stringify(wanted)}; the ${plural} are ${listLabels(labels)}`;
}
