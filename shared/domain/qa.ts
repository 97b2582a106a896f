import { z } from 'zod';

/** Where a factual question came from: ChartQA-H (human) or ChartQA-M (augmented). */
export const QA_SOURCES = ['human', 'augmented'] as const;
export const QaSourceSchema = z.enum(QA_SOURCES);
export type QaSource = z.infer<typeof QaSourceSchema>;
