import type { z } from 'zod';
import { isApiError } from '../api/http';

/** One message per top-level form field, keyed by the request-body field name. */
export type FieldErrors = Partial<Record<string, string>>;

/**
 * A failed client-side parse of a request body, as one message per top-level field (the
 * first issue wins). Issues deeper inside a field (an edit op) keep their path in the message.
 */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const [field = '', ...rest] = issue.path.map(String);
    errors[field] ??= rest.length > 0 ? `${rest.join('.')}: ${issue.message}` : issue.message;
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
