import type { z } from 'zod';
import { PredictionRowSchema } from '../../shared/api/evaluations';
import { DomainError } from '../domain-error';

/** A file handed to a scorer: its name (for messages) and its whole text. */
export interface NamedText {
  name: string;
  text: string;
}

/** Bad input to `hqa score --format …` or the score-file route; the message names the file and the field or record. */
export class ScoreFileError extends DomainError {
  constructor(message: string) {
    super('bad_request', message);
  }
}

/** `conversation[1].label` from zod's `['conversation', 1, 'label']`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? String(part) : `.${String(part)}`)).join('');
}

/** Parses `value` with `schema`, or throws naming `where` (a file, line or record) and the first bad field. */
export function parseWith<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue ? fieldPath(issue.path) : '';
  throw new ScoreFileError(`${where}: ${field === '' ? '' : `${field}: `}${issue?.message ?? 'invalid'}`);
}

export function parseJsonText(file: NamedText): unknown {
  try {
    return JSON.parse(file.text) as unknown;
  } catch (error) {
    throw new ScoreFileError(`${file.name}: not JSON: ${(error as Error).message}`);
  }
}

/** One value read from a file, and where it was: `line 12` of JSONL, `[11]` of a JSON array. */
export interface Located {
  readonly where: string;
  value: unknown;
}

/** `where` is spelled out only when read (an error, a warning): a file of 100,000 good records needs none of it. */
class LocatedRecord implements Located {
  constructor(
    private readonly file: string,
    /** A JSON array's index, or a JSON Lines file's 1-based line number. */
    private readonly position: number,
    private readonly line: boolean,
    readonly value: unknown,
  ) {}

  get where(): string {
    return this.line ? `${this.file}: line ${this.position}` : `${this.file}: [${this.position}]`;
  }
}

/**
 * The records of a JSON array or of JSON Lines (blank lines skipped), each with its location in
 * the file, so a bad record is named by line (JSONL) or index (array).
 */
export function readRecords(file: NamedText): Located[] {
  const text = file.text.replace(/^\uFEFF/, '');
  if (text.trimStart().startsWith('[')) {
    const data = parseJsonText({ name: file.name, text });
    if (!Array.isArray(data)) throw new ScoreFileError(`${file.name}: expected a JSON array or JSON Lines`);
    return data.map((value: unknown, index) => new LocatedRecord(file.name, index, false, value));
  }
  const records: Located[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]?.trim() ?? '';
    if (line === '') continue;
    try {
      records.push(new LocatedRecord(file.name, index + 1, true, JSON.parse(line) as unknown));
    } catch (error) {
      throw new ScoreFileError(`${file.name}: line ${index + 1}: not JSON: ${(error as Error).message}`);
    }
  }
  if (records.length === 0) throw new ScoreFileError(`${file.name}: holds no records`);
  return records;
}

/**
 * `hqa eval`'s predictions (`[{ id, prediction, raw }]`, or the same rows as JSON Lines) as a map
 * from id to prediction; a null prediction (no extractable answer) is kept as null, a repeated id
 * is an error.
 */
/** Made once: zod compiles a schema on first use, so a schema made per row would compile 100,000 times. */
const PredictionIdSchema = PredictionRowSchema.pick({ id: true, prediction: true });

export function readPredictionRows(records: readonly Located[], file: string): Map<string, string | null> {
  const predictions = new Map<string, string | null>();
  for (const record of records) {
    const row = parseWith(PredictionIdSchema, record.value, record.where);
    if (predictions.has(row.id)) throw new ScoreFileError(`${record.where}: id: duplicate id "${row.id}" in ${file}`);
    predictions.set(row.id, row.prediction);
  }
  return predictions;
}

/** How many ids to name in a warning before "and N more". */
const IDS_NAMED = 5;

/** "3 predictions name no question: 9#0, 9#1, x (and 0 more)" — or nothing when none. */
export function idsWarning(ids: readonly string[], what: string): string[] {
  if (ids.length === 0) return [];
  const named = ids.slice(0, IDS_NAMED).join(', ');
  const more = ids.length > IDS_NAMED ? ` and ${ids.length - IDS_NAMED} more` : '';
  return [`${ids.length} ${what}: ${named}${more}`];
}
