import { z } from 'zod';
import { PredictionRowSchema, type PredictionRow } from '@shared/api/evaluations';

export type ParsedPredictions = { ok: true; predictions: PredictionRow[] } | { ok: false; message: string };

const PredictionFileSchema = z.array(PredictionRowSchema).min(1, 'holds no predictions');

/** `[3].id` for the path of an issue inside the file's array; `document` for the array itself. */
function pathText(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'document';
  return path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('').replace(/^\./, '');
}

/**
 * Reads an `hqa eval` output file (`[{ id, prediction, raw }]`) before anything is sent, so a
 * wrong file is named with the first entry and field that do not fit.
 */
export function parsePredictionsFile(fileName: string, text: string): ParsedPredictions {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `${fileName}: not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  const parsed = PredictionFileSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const expected = Array.isArray(data) ? '' : ' — expected the array [{id, prediction, raw}] that `hqa eval` writes';
    return { ok: false, message: `${fileName}: ${pathText(issue?.path ?? [])}: ${issue?.message ?? 'not valid'}${expected}` };
  }
  return { ok: true, predictions: parsed.data };
}
