import { freeText } from './text-input';

/**
 * How long an imported question and its answer may be, whatever the benchmark. ChartQA's
 * longest question is a few hundred characters (the real samples: MultiChartQA's longest,
 * with its image prefix, 1,253; CharXiv's 399; ChartBench's 115); a file of megabyte
 * "questions" is not a benchmark, and each one would be stored, indexed and sent to a model.
 */
export const MAX_QUESTION_CHARS = 2_000;
export const MAX_LABEL_CHARS = 1_000;

const longerThan = (chars: number) => `longer than ${chars} characters`;

/**
 * A benchmark's question as published: free text (lone surrogates refused, NUL and bidi
 * controls stripped), not empty, at most MAX_QUESTION_CHARS. Not trimmed: CharXiv's questions
 * keep their published spaces, and a re-import compares each question with the stored one.
 */
export function importedQuestion() {
  return freeText().min(1).max(MAX_QUESTION_CHARS, longerThan(MAX_QUESTION_CHARS));
}

/** ChartQA's question: trimmed before its length is measured (its importer always trimmed). */
export function trimmedImportedQuestion() {
  return freeText().trim().min(1).max(MAX_QUESTION_CHARS, longerThan(MAX_QUESTION_CHARS));
}

/** An imported answer (a label): free text, at most MAX_LABEL_CHARS. */
export function importedAnswer() {
  return freeText().max(MAX_LABEL_CHARS, longerThan(MAX_LABEL_CHARS));
}
