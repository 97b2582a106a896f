import type { z } from 'zod';
import { endpointUrl, type CallArgs, type Endpoint, type JsonEndpoint, type ResponseOf } from '@shared/api/endpoint';
import { ErrorBodySchema, type ErrorCode } from '@shared/errors';
import { requestFieldLabel } from '@shared/issue-words';

/** An API failure carrying the server's stable error code (and the offending field, if any). */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
    /** From a 429's `Retry-After` header, when the server sent one. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The code to assume when an error response carries no parsable error body. */
function codeForStatus(status: number): ErrorCode {
  if (status === 400) return 'bad_request';
  if (status === 401) return 'unauthenticated';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 413) return 'payload_too_large';
  if (status === 429) return 'rate_limited';
  return 'internal';
}

function parseRetryAfter(header: string | null): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : undefined;
}

async function errorFromResponse(response: Response): Promise<ApiError> {
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
  const body: unknown = await response.json().catch(() => undefined);
  const parsed = ErrorBodySchema.safeParse(body);
  if (parsed.success) {
    const { code, message, field } = parsed.data.error;
    return new ApiError(response.status, code, message, field, retryAfter);
  }
  const message = response.statusText || `Request failed with status ${response.status}`;
  return new ApiError(response.status, codeForStatus(response.status), message, undefined, retryAfter);
}

async function request<T>(method: string, path: string, schema: z.ZodType<T>, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? { Accept: 'application/json' } : { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'internal', 'Could not reach the server. Check your connection and try again.');
  }
  if (!response.ok) throw await errorFromResponse(response);

  const json: unknown = await response.json().catch(() => undefined);
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    // A contract mismatch between client and server: log the detail, show a plain message.
    console.error(`Unexpected response from ${method} ${path}`, parsed.error.issues);
    throw new ApiError(response.status, 'internal', 'The server sent a response this page does not understand.');
  }
  return parsed.data;
}

/**
 * Calls an endpoint as its descriptor says: its method, its path with `params` filled in and
 * `query` appended, `body` as JSON, the answer parsed with its response schema. Failures are
 * ApiErrors with the server's code. A write without a body still sends `{}`: the server takes
 * writes as JSON only.
 */
export function call<E extends JsonEndpoint>(e: E, ...[input]: CallArgs<E>): Promise<ResponseOf<E>> {
  const { params, query, body } = (input ?? {}) as { params?: unknown; query?: unknown; body?: unknown };
  const url = endpointUrl(e, { params, query });
  const sent = e.method === 'GET' ? undefined : (body ?? {});
  // request's T is the schema's output, which is what ResponseOf<E> names for this E.
  return request(e.method, url, e.schemas.response, sent) as Promise<ResponseOf<E>>;
}

/**
 * How long a downloaded file's blob: URL stays valid: the browser reads it after the click
 * returns, and revoking it at once has cancelled downloads (FileSaver.js waits 40 s for this).
 */
const BLOB_URL_LIFE_MS = 60_000;

/** An endpoint that answers a file (`response: 'file'`), fetched for a download. */
export type FileEndpoint = Endpoint & { readonly schemas: { readonly response: 'file' } };

/** The file name a Content-Disposition header gives (`filename*=UTF-8''…` first), if any. */
export function attachmentName(header: string | null): string | undefined {
  if (header === null) return undefined;
  const encoded = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header)?.[1];
  if (encoded !== undefined) {
    try {
      return decodeURIComponent(encoded.trim());
    } catch {
      // A malformed encoding: the plain filename parameter, if any, still names the file.
    }
  }
  return /filename\s*=\s*"([^"]*)"/i.exec(header)?.[1] ?? /filename\s*=\s*([^;\s]+)/i.exec(header)?.[1];
}

/**
 * Fetches a file endpoint as its descriptor says (a POST with its JSON body: downloads that
 * leave an audit entry are POSTs, so no page elsewhere can start one with a link) and hands the
 * file to the browser as a download named by the server's Content-Disposition. The file is held
 * in memory as a Blob until saved. Failures are ApiErrors with the server's code, before any save.
 */
export async function download<E extends FileEndpoint>(e: E, ...[input]: CallArgs<E>): Promise<void> {
  const { params, query, body } = (input ?? {}) as { params?: unknown; query?: unknown; body?: unknown };
  const url = endpointUrl(e, { params, query });
  const sent = e.method === 'GET' ? undefined : JSON.stringify(body ?? {});
  let response: Response;
  try {
    response = await fetch(url, {
      method: e.method,
      credentials: 'same-origin',
      headers: sent === undefined ? {} : { 'Content-Type': 'application/json' },
      body: sent,
    });
  } catch {
    throw new ApiError(0, 'internal', 'Could not reach the server. Check your connection and try again.');
  }
  if (!response.ok) throw await errorFromResponse(response);
  const blob = await response.blob();
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = attachmentName(response.headers.get('content-disposition')) ?? 'download';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(href), BLOB_URL_LIFE_MS);
}

/**
 * An error about one field, in words: the server's `body.budget_cost: …` prefix is for programs;
 * a person reads the field's name ("Budget cost"), once.
 */
function fieldMessage(field: string, message: string): string {
  const rest = message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message;
  const label = requestFieldLabel(field);
  return rest.startsWith(label) ? rest : `${label}: ${rest}`;
}

/** A user-facing sentence for any error a query or mutation may throw. */
export function errorMessage(error: unknown): string {
  if (isApiError(error)) {
    if (error.status === 403) return `Not allowed: ${error.message}`;
    return error.field ? fieldMessage(error.field, error.message) : error.message;
  }
  return error instanceof Error ? error.message : 'Something went wrong.';
}
