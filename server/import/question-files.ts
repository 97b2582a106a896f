import { readdirSync } from 'node:fs';
import { z } from 'zod';
import type { QaSource } from '../../shared/domain/qa';
import { InputFileError } from './input-file-error';
import { parseJsonFile } from './json-file';
import type { SplitFolder } from './split-folder';
import { importedAnswer, trimmedImportedQuestion } from '../../shared/domain/imported-text';
import { nameText } from '../../shared/domain/text-input';

/** Question files of a big real split are a few MB; anything past this is not a question file. */
export const MAX_QUESTION_FILE_BYTES = 32 * 1024 * 1024;

const QUESTION_FILE = /^(.+)_(human|augmented)\.json$/;

export interface QuestionFile {
  split: string;
  source: QaSource;
  /** The file's name inside the split folder. */
  name: string;
}

/** Finds `<split>_human.json` / `<split>_augmented.json` in a split folder. */
export function findQuestionFiles(dir: string): QuestionFile[] {
  return readdirSync(dir)
    .map((name) => ({ name, match: QUESTION_FILE.exec(name) }))
    .filter((f): f is { name: string; match: RegExpExecArray } => f.match !== null)
    .map(({ name, match }) => ({ split: match[1] ?? '', source: match[2] as QaSource, name }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

const QuestionEntrySchema = z.object({
  // A file name identifies a chart: bidi controls would make two names look alike.
  imgname: nameText().min(1),
  query: trimmedImportedQuestion(),
  // ChartQA labels are strings; a number is accepted and kept as its text.
  label: z.union([importedAnswer(), z.number()]).transform((label) => String(label)),
});

export interface QuestionEntry {
  imgname: string;
  query: string;
  label: string;
  source: QaSource;
  index: number;
}

/**
 * Reads one question file. Entries that are not `{imgname, query, label}` are reported (by
 * their index) and left out; the others are returned.
 */
export function readQuestionFile(folder: SplitFolder, file: QuestionFile): { entries: QuestionEntry[]; errors: InputFileError[] } {
  const text = folder.readText(file.name, { maxBytes: MAX_QUESTION_FILE_BYTES, kind: 'question files' });
  // Found by listing the folder a moment ago: gone now means it was removed during the import.
  if (text === null) throw new InputFileError(file.name, 'the file was removed during the import');
  if (text.trim() === '') throw new InputFileError(file.name, 'the file is empty');
  const data = parseJsonFile(text, file.name);
  if (!Array.isArray(data)) throw new InputFileError(file.name, 'expected a JSON array of {imgname, query, label}');
  const entries: QuestionEntry[] = [];
  const errors: InputFileError[] = [];
  data.forEach((raw: unknown, index) => {
    const parsed = QuestionEntrySchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.join('.') || 'entry';
      errors.push(new InputFileError(file.name, `entry ${index}: ${field}: ${issue?.message ?? 'invalid'}`));
      return;
    }
    entries.push({ ...parsed.data, source: file.source, index });
  });
  return { entries, errors };
}

/**
 * An imgname must name a file inside the split's png/ folder: no path separators, no `..`,
 * nothing absolute. Returns the stem, or a reason it is refused.
 */
export function stemOfImgname(imgname: string): { stem: string } | { reason: string } {
  if (/[/\\]/.test(imgname) || imgname.includes('..') || /^[A-Za-z]:/.test(imgname) || imgname.includes('\0')) {
    return { reason: `imgname "${imgname}" is not a plain file name inside the split folder` };
  }
  const match = /^(.+)\.png$/i.exec(imgname);
  if (!match?.[1]) return { reason: `imgname "${imgname}" must name a .png file` };
  return { stem: match[1] };
}
