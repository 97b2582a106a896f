import type { AnswerKind } from './benchmark-fields';

/**
 * "number" when the label is a number once thousands commas and a % are dropped, else "text".
 * Migration 014 classifies existing ChartQA questions with the same rule in SQL (GLOB on
 * digits . e E + -): keep the two in step.
 */
export function numberOrText(label: string): Extract<AnswerKind, 'number' | 'text'> {
  const bare = label.replaceAll(',', '').replaceAll('%', '').trim();
  return bare !== '' && /^[0-9.eE+-]+$/.test(bare) ? 'number' : 'text';
}

/** A Yes/No label ("Yes", "no", " YES "), whatever question it answers. */
export function isYesNoLabel(label: string): boolean {
  return /^(yes|no)$/i.test(label.trim());
}
