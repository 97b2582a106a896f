import { resolve } from 'node:path';

/** The real ChartQA files beside the repo (GPL-3.0: read from tests, never copied in). */
export const SHARED_DATA = resolve(process.cwd(), '../shared/data');
export const CHARTQA_SAMPLE = resolve(SHARED_DATA, 'chartqa-sample');
export const CHARTQA_EXTRA = resolve(SHARED_DATA, 'chartqa-extra');
/** 120 more ChartQA test charts, among them every remaining one with a Yes/No human question (see its README). */
export const CHARTQA_MORE = resolve(SHARED_DATA, 'chartqa-more');
/** Real samples of MultiChartQA, ChartBench and CharXiv (see its README), read from tests, never copied in. */
export const SEED_BENCHMARKS = resolve(SHARED_DATA, 'seed-benchmarks');
