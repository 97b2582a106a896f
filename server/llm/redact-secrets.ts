/**
 * Upstream error texts are stored (llm_calls, task errors, run stop reasons) and shown to every
 * reviewer; an endpoint or proxy that echoes the request's `Authorization` header put the API
 * key there. Before an error text is kept, the configured key and anything shaped like a bearer
 * token or an OpenAI-style key are blotted out.
 */
const REDACTED = '[redacted]';
const BEARER = /\b(Bearer)\s+[A-Za-z0-9._~+/=-]{6,}/gi;
const SECRET_KEY = /\b(sk|rk|pk)-[A-Za-z0-9_-]{6,}/g;
/** Shorter configured keys ("x", "none") are placeholders, and blotting them out would garble the text. */
const MIN_KEY_LENGTH = 8;

export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let redacted = text;
  for (const secret of secrets) if (secret.length >= MIN_KEY_LENGTH) redacted = redacted.split(secret).join(REDACTED);
  return redacted.replace(BEARER, `$1 ${REDACTED}`).replace(SECRET_KEY, `$1-${REDACTED}`);
}
