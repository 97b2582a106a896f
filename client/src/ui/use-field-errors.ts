import { useState } from 'react';
import type { z } from 'zod';
import type { FieldLabels } from '@shared/issue-words';
import { fieldErrorsOf, parseForm, serverFieldMessage, serverFieldOf, type FieldErrors } from './form-errors';

/**
 * The errors of a form sent through one mutation: its own parse of the request body first,
 * then the server's answer to the last submit. A server error goes under the field it names
 * when the form shows that field (all fields unless `shownFields` says otherwise); otherwise
 * `serverField` is undefined and the form shows the error beside its submit button. `labels`:
 * the form's names for fields whose request names read differently ("Budget, cost in $").
 */
export function useFieldErrors(serverError: unknown, shownFields?: readonly string[], labels?: FieldLabels) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const named = serverFieldOf(serverError);
  const serverField = named !== undefined && (shownFields === undefined || shownFields.includes(named)) ? named : undefined;
  const errorFor = (field: string) => errors[field] ?? (serverError && serverField === field ? serverFieldMessage(serverError) : undefined);

  /** The parsed body, or undefined after putting each failure, in words, under its field. */
  const validate = <T>(schema: z.ZodType<T>, body: unknown): T | undefined => {
    const parsed = parseForm(schema, body, labels);
    setErrors(parsed.success ? {} : fieldErrorsOf(parsed.error));
    return parsed.success ? parsed.data : undefined;
  };
  return { validate, errorFor, serverField };
}
