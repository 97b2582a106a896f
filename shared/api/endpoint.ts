import type { z } from 'zod';

/**
 * The API contract as code: one descriptor per endpoint, which the server mounts (`handle` in
 * `server/http/handle.ts`) and the client calls (`call` in `client/src/api/http.ts`). A path
 * and its schemas are written once, here; neither side pairs them by hand.
 */

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * What crosses the wire for one endpoint. `response` is a zod schema for a JSON answer, or
 * `'file'` for an answer that is not JSON (a PNG, a streamed download): the handler writes it
 * itself and the client fetches it by URL (`endpointUrl`).
 */
export interface EndpointSchemas {
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly response: z.ZodType | 'file';
  /** The success status when it is not 200 (201 for a created record, 202 for accepted work). */
  readonly status?: 200 | 201 | 202;
}

export interface Endpoint<M extends HttpMethod = HttpMethod, P extends string = string, S extends EndpointSchemas = EndpointSchemas> {
  readonly method: M;
  /** The full path, `/api/...`, with `:name` segments for path params. */
  readonly path: P;
  readonly schemas: S;
}

export function endpoint<const M extends HttpMethod, const P extends string, const S extends EndpointSchemas>(
  method: M,
  path: P,
  schemas: S,
): Endpoint<M, P, S> {
  return { method, path, schemas };
}

type Parsed<T> = T extends z.ZodType ? z.output<T> : undefined;
type Given<T> = T extends z.ZodType ? z.input<T> : undefined;

/** What a handler receives after the server parsed the request with the descriptor's schemas. */
export interface ParsedInput<S extends EndpointSchemas> {
  readonly params: Parsed<S['params']>;
  readonly query: Parsed<S['query']>;
  readonly body: Parsed<S['body']>;
}

/** What a JSON endpoint answers, after parsing (client) or before serialising (server). */
export type ResponseOf<E extends Endpoint> = E['schemas']['response'] extends z.ZodType ? z.output<E['schemas']['response']> : never;
/** What a handler may return: the response schema's input (so defaults may be left out). */
export type HandlerResult<E extends Endpoint> = E['schemas']['response'] extends z.ZodType ? z.input<E['schemas']['response']> : void;

/** Parts a caller may leave out: absent ones, and those whose every field is optional (a query of defaults). */
type OptionalKeys<T> = { [K in keyof T]: undefined extends T[K] ? K : Record<never, never> extends T[K] ? K : never }[keyof T];
type Compact<T> = { [K in Exclude<keyof T, OptionalKeys<T>>]: T[K] } & { [K in OptionalKeys<T>]?: T[K] };

/** What a caller passes: params, query and body as their schemas accept them; absent parts may be left out. */
export type CallInput<E extends Endpoint> = Compact<{
  params: Given<E['schemas']['params']>;
  query: Given<E['schemas']['query']>;
  body: Given<E['schemas']['body']>;
}>;

/** An endpoint that answers JSON (not a file fetched by URL). */
export type JsonEndpoint = Endpoint & { readonly schemas: { readonly response: z.ZodType } };

/** A call's input as a rest parameter, optional when the endpoint takes no params, query or body it requires. */
export type CallArgs<E extends Endpoint> = object extends CallInput<E> ? [input?: CallInput<E>] : [input: CallInput<E>];

/** The path with its `:name` segments filled in (URI-encoded), e.g. `/api/items/:id` → `/api/items/12`. */
export function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:([A-Za-z_]\w*)/g, (_match, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`${path}: path param ${name} is missing`);
    return encodeURIComponent(String(value as string | number));
  });
}

/** A query string for plain values (undefined and empty strings left out), with its `?`, or ''. */
export function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) for (const v of value) search.append(key, String(v as string | number));
    else search.set(key, String(value as string | number | boolean));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The URL of a call, for endpoints the browser fetches itself (`<img src>`, a download link). */
export function endpointUrl<E extends Endpoint>(e: E, input: { params?: unknown; query?: unknown } = {}): string {
  return fillPath(e.path, input.params as Record<string, unknown> | undefined) + queryString(input.query as Record<string, unknown> | undefined);
}
