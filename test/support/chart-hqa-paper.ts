import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SHARED_DATA } from './paths';

/** The Chart-HQA paper's published tables beside the repo (facts from the paper: read from tests, never copied in). */
export const CHART_HQA_PAPER = resolve(SHARED_DATA, 'chart-hqa-paper');

export type PaperTableFile = 'table3.tsv' | 'table4.tsv';

/** One table's file: its path and its text. */
export function readPaperTableFile(name: PaperTableFile): { path: string; text: string } {
  const path = resolve(CHART_HQA_PAPER, name);
  return { path, text: readFileSync(path, 'utf8') };
}
