import type { z } from 'zod';
import { fieldLabel, inWords, type FieldLabels } from '@shared/issue-words';
import { isApiError } from '../api/http';

/** One message per top-level form field, keyed by the request-body field name. */
export type FieldErrors = Partial<Record<string, string>>;

/**
 * A form's request body parsed as the server will parse it, its failures in words naming the
 * field (`@shared/issue-words`): the one way a form checks its input. `labels` are the form's own
 * names for its fields, where they differ from the request's (`budget_cost`: "Budget, cost in $").
 */
export function parseForm<T>(schema: z.ZodType<T>, body: unknown, labels?: FieldLabels): z.ZodSafeParseResult<T> {
  return schema.safeParse(body, { error: inWords(labels) });
}

/**
 * A failed parse of a request body, as one message per top-level field (the first issue wins).
 * Parsed with `parseForm`, each message names its field in words; an issue deeper inside a
 * field (an edit op) worded otherwise keeps its path in front.
 */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const [field = '', ...rest] = issue.path.map(String);
    const named = issue.message.startsWith(fieldLabel(issue.path));
    errors[field] ??= rest.length > 0 && !named ? `${rest.join('.')}: ${issue.message}` : issue.message;
  }
  return errors;
}

/**
 * The request-body field a server error is about, if any. The server names validation
 * failures `body.<field>` and domain conflicts by the bare field; both map to the field.
 */
export function serverFieldOf(error: unknown): string | undefined {
  if (!isApiError(error) || !error.field) return undefined;
  return error.field.replace(/^body\./, '').split('.')[0];
}

/** A server error's message for display under its field, without the leading `body.field: `. */
export function serverFieldMessage(error: unknown): string {
  if (!isApiError(error)) return error instanceof Error ? error.message : 'Something went wrong.';
  const prefix = error.field ? `${error.field}: ` : '';
  return prefix && error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
}
