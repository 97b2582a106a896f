import { resolve } from 'node:path';

/** The real ChartQA files beside the repo (GPL-3.0: read from tests, never copied in). */
export const SHARED_DATA = resolve(process.cwd(), '../shared/data');
export const CHARTQA_SAMPLE = resolve(SHARED_DATA, 'chartqa-sample');
export const CHARTQA_EXTRA = resolve(SHARED_DATA, 'chartqa-extra');
/** Real samples of MultiChartQA, ChartBench and CharXiv (see its README), read from tests, never copied in. */
export const SEED_BENCHMARKS = resolve(SHARED_DATA, 'seed-benchmarks');
