import type { z } from 'zod';

/**
 * Validation failures in words a person reads: "Budget, cost in $ must be 0 or more", not zod's
 * "Too small: expected number to be >=0". One error map for every form and every request the
 * server parses (`parseInput`), passed per parse, so a message a schema writes itself (a
 * regex's "may hold letters, digits, _ . -", a refine's reason) still wins over these.
 */

/** A form's own names for its fields, by request field (`budget_cost`) or dotted path (`criteria.rationality.note`). */
export type FieldLabels = Readonly<Record<string, string>>;

type RawIssue = z.core.$ZodRawIssue;

/** Words written in capitals (or otherwise) when a field name is read out. */
const WORD_FORMS: Readonly<Record<string, string>> = { qa: 'QA', qas: 'QAs', llm: 'LLM', url: 'URL', json: 'JSON', csv: 'CSV', tsv: 'TSV', api: 'API', hf: 'HF', usd: 'USD', id: 'id', ids: 'ids' };

function words(segment: PropertyKey): string {
  if (typeof segment === 'number') return `#${segment + 1}`;
  return String(segment)
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((word) => WORD_FORMS[word.toLowerCase()] ?? word)
    .join(' ');
}

const capitalised = (text: string) => (text ? text.charAt(0).toUpperCase() + text.slice(1) : text);

/**
 * A field's name as the form shows it, else its request name in words: `budget_cost` → "Budget
 * cost", `price_table.gpt-4o.input_per_mtok` → "Price table › gpt 4o › input per mtok", `items.2` →
 * "Items › #3". The whole body (an empty path, unless `labels['']` names it) is "The form".
 */
export function fieldLabel(path: readonly PropertyKey[], labels: FieldLabels = {}): string {
  const key = path.map(String).join('.');
  const own = labels[key];
  if (own !== undefined) return own;
  if (path.length === 0) return 'The form';
  const [first, ...rest] = path;
  const firstLabel = first === undefined ? undefined : labels[String(first)];
  const named = [firstLabel ?? capitalised(words(first ?? '')), ...rest.map(words)];
  return named.join(' › ');
}

/** A field as an error body names it (`body.budget_cost`, `query.page`), in words ("Budget cost"). */
export function requestFieldLabel(field: string): string {
  return fieldLabel(field.replace(/^(body|query|params)\./, '').split('.'));
}

/** A number as people write it: 0.5, 100000 → 100,000 is left to the reader; no exponent for small steps. */
function shown(value: unknown): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(12)));
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return String(value);
}

const TYPE_NOUNS: Readonly<Record<string, string>> = {
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  string: 'text',
  boolean: 'yes or no',
  array: 'a list',
  object: 'a set of fields',
  date: 'a date',
};

const FORMAT_NOUNS: Readonly<Record<string, string>> = {
  email: 'an e-mail address',
  url: 'a web address (https://…)',
  uuid: 'an id of the form 123e4567-e89b-…',
  datetime: 'a date and time (2025-01-31T12:00:00Z)',
  date: 'a date (2025-01-31)',
  safeint: 'a whole number',
  int32: 'a whole number',
};

/** What is wrong, as the end of a sentence whose subject is the field; undefined leaves the message to the schema. */
function phrase(issue: RawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null || issue.input === '') return 'is required';
      return `must be ${TYPE_NOUNS[issue.expected] ?? issue.expected}`;
    case 'too_small': {
      const { origin, minimum, inclusive } = issue;
      if (origin === 'string') return Number(minimum) <= 1 ? 'must not be empty' : `must be at least ${shown(minimum)} characters`;
      if (origin === 'array' || origin === 'set') return Number(minimum) <= 1 ? 'needs at least one entry' : `needs at least ${shown(minimum)} entries`;
      if (origin === 'date') return `must be on or after ${shown(minimum)}`;
      return inclusive === false ? `must be more than ${shown(minimum)}` : `must be ${shown(minimum)} or more`;
    }
    case 'too_big': {
      const { origin, maximum, inclusive } = issue;
      if (origin === 'string') return `must be at most ${shown(maximum)} characters`;
      if (origin === 'array' || origin === 'set') return `may hold at most ${shown(maximum)} entries`;
      if (origin === 'date') return `must be on or before ${shown(maximum)}`;
      return inclusive === false ? `must be less than ${shown(maximum)}` : `must be ${shown(maximum)} or less`;
    }
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${shown(issue.values[0])}` : `must be one of ${issue.values.map(shown).join(', ')}`;
    case 'invalid_format':
      if (issue.format === 'starts_with' && 'prefix' in issue) return `must start with "${String(issue.prefix)}"`;
      if (issue.format === 'ends_with' && 'suffix' in issue) return `must end with "${String(issue.suffix)}"`;
      if (issue.format === 'includes' && 'includes' in issue) return `must contain "${String(issue.includes)}"`;
      return issue.format === 'regex' ? 'is not in the expected form' : `must be ${FORMAT_NOUNS[issue.format] ?? `a valid ${issue.format}`}`;
    case 'not_multiple_of':
      return `must be a multiple of ${shown(issue.divisor)}`;
    case 'unrecognized_keys':
      return `has ${issue.keys.length === 1 ? 'a field' : 'fields'} it does not take: ${issue.keys.join(', ')}`;
    case 'invalid_union':
      return 'is not a value it takes';
    case 'invalid_key':
    case 'invalid_element':
      return 'holds an entry it does not take';
    case 'custom':
      return undefined;
  }
  return undefined;
}

/** The message for one issue: the field named (by the form's label where it has one), then what is wrong. */
export function issueMessage(issue: RawIssue, labels: FieldLabels = {}): string | undefined {
  const what = phrase(issue);
  return what === undefined ? undefined : `${fieldLabel(issue.path ?? [], labels)} ${what}`;
}

/**
 * The error map to parse a form's or a request's input with: `schema.safeParse(input, { error: inWords(labels) })`.
 * Issues a schema words itself keep its words.
 */
export function inWords(labels: FieldLabels = {}): z.core.$ZodErrorMap {
  return (issue) => issueMessage(issue, labels);
}
