import { z } from 'zod';

/** Where a factual question came from: ChartQA-H (human), ChartQA-M (augmented), or another benchmark. */
export const QA_SOURCES = ['human', 'augmented', 'multichartqa', 'chartbench', 'charxiv'] as const;
export const QaSourceSchema = z.enum(QA_SOURCES);
export type QaSource = z.infer<typeof QaSourceSchema>;
