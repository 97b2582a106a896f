import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ImportFormat } from '../../shared/domain/benchmark-fields';
import { chartBenchFiles } from './chartbench-files';
import { optionWords, type OptionWords } from './import-audience';
import { charXivDataDir } from './charxiv-files';
import { MULTICHARTQA_QA_FILE, multiChartQaDataDir } from './multichartqa-folder';
import { findQuestionFiles } from './question-files';

/** What each format is recognised by, for the error when none is found. */
export const FORMAT_SIGNS: Record<ImportFormat, string> = {
  chartqa: 'tables/ (ChartQA) or png/ beside <name>_human.json / <name>_augmented.json (ChartQA, images only)',
  multichartqa: `data/<group>/${MULTICHARTQA_QA_FILE} or <group>/${MULTICHARTQA_QA_FILE} (MultiChartQA)`,
  chartbench: '*.jsonl record files (ChartBench)',
  charxiv: 'descriptive_<split>.json / reasoning_<split>.json, or data/ holding them (CharXiv)',
};

export class UndetectableFormatError extends Error {}

const isFolder = (path: string) => existsSync(path) && statSync(path).isDirectory();

/** The formats whose files are in `dir`, in the order checked. */
export function formatsIn(dir: string): ImportFormat[] {
  const found: ImportFormat[] = [];
  // A ChartQA split of image-only charts has no tables/: its PNGs and question files say what it is.
  if (isFolder(join(dir, 'tables')) || (isFolder(join(dir, 'png')) && findQuestionFiles(dir).length > 0)) found.push('chartqa');
  if (multiChartQaDataDir(dir) !== null) found.push('multichartqa');
  if (chartBenchFiles(dir).length > 0) found.push('chartbench');
  if (charXivDataDir(dir) !== null) found.push('charxiv');
  return found;
}

/**
 * The one format `dir` is laid out in. None, or more than one, is an error naming what was
 * looked for (or what was found), so the user can choose one (`--format`, or the import form's Format).
 */
export function detectFormat(dir: string, words: OptionWords = optionWords('cli')): ImportFormat {
  const found = formatsIn(dir);
  if (found.length === 1 && found[0]) return found[0];
  if (found.length === 0) {
    throw new UndetectableFormatError(`${dir}: cannot tell the format; looked for ${Object.values(FORMAT_SIGNS).join('; ')}. ${words.chooseFormat}`);
  }
  throw new UndetectableFormatError(`${dir}: holds files of several formats (${found.join(', ')}). ${words.chooseFormat}`);
}
