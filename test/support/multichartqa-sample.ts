import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SEED_BENCHMARKS } from './paths';

/** The real MultiChartQA sample: `data/<group>/chart-path_and_question-answer_pair.json` of 3 Our World in Data groups. */
export const MULTICHARTQA_DATA = resolve(SEED_BENCHMARKS, 'multichartqa/data');
export const MULTICHARTQA_QA_FILE_NAME = 'chart-path_and_question-answer_pair.json';

export interface MultiChartQaSampleQuestion {
  id: string;
  answer: string;
  task: string;
  type: 'multiple-choice' | 'open-ended';
}

export const multiChartQaGroups = (): string[] => readdirSync(MULTICHARTQA_DATA).sort();
export const multiChartQaGroupFile = (group: string): string => resolve(MULTICHARTQA_DATA, group, MULTICHARTQA_QA_FILE_NAME);

export function readMultiChartQaGroup(group: string): MultiChartQaSampleQuestion[] {
  return JSON.parse(readFileSync(multiChartQaGroupFile(group), 'utf8')) as MultiChartQaSampleQuestion[];
}

/** Every group's questions, groups in name order. */
export function readMultiChartQaSample(): MultiChartQaSampleQuestion[] {
  return multiChartQaGroups().flatMap(readMultiChartQaGroup);
}
