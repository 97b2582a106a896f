import { z } from 'zod';
import { ChartHqaExportV1Schema } from './chart-hqa';

/** The JSON Schema of the Chart-HQA export, generated from the zod schema (the source of truth). */
export function chartHqaJsonSchema(): Record<string, unknown> {
  return {
    $id: 'https://chart-hqa.local/schemas/chart-hqa.v1.schema.json',
    title: 'Chart-HQA export v1',
    ...(z.toJSONSchema(ChartHqaExportV1Schema, { target: 'draft-2020-12', io: 'output' }) as Record<string, unknown>),
  };
}
