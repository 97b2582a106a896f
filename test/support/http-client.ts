import { authApi } from '../../shared/api/auth';
import { endpointUrl, type CallArgs, type Endpoint, type JsonEndpoint, type ResponseOf } from '../../shared/api/endpoint';
import { ErrorBodySchema, type ErrorBody } from '../../shared/errors';

/** What a test may send to an endpoint on purpose, malformed or not: `send` is for refusals too. */
export interface RawInput {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

export interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
}

/**
 * A tiny cookie-keeping HTTP client for integration tests: one instance is one browser
 * session against the real server. Tests reach endpoints through their descriptors
 * (`call`, `send`, `refusal`); `request` with a path is for tests whose point is the path.
 */
export class TestClient {
  cookie = '';
  constructor(readonly baseUrl: string) {}

  async request(method: string, path: string, body?: unknown): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (this.cookie) headers.cookie = this.cookie;
    // The server takes writes in JSON only, body or not (a GET's absent body needs no type).
    if (body !== undefined || method !== 'GET') headers['content-type'] = 'application/json';
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
    });
    this.keepCookies(response.headers.getSetCookie());
    const type = response.headers.get('content-type') ?? '';
    const parsed: unknown = type.includes('json') ? await response.json() : await response.arrayBuffer();
    return { status: response.status, body: parsed, headers: response.headers };
  }

  /**
   * What a browser keeps of the answer's cookies, for this client's one cookie on `/`: a value
   * set there replaces it, an expired one removes it. Cookies for other paths (the server
   * expiring stray copies on /api, /api/items …) are not this client's to hold.
   */
  private keepCookies(lines: string[]): void {
    for (const line of lines) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const path = attributes.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      if (path !== '/') continue;
      const expires = attributes.find((a) => a.toLowerCase().startsWith('expires='))?.slice(8);
      const expired = expires !== undefined && Date.parse(expires) <= Date.now();
      this.cookie = expired || pair.endsWith('=') ? '' : pair;
    }
  }

  /**
   * Calls an endpoint as the client's `call` does (params filled in, query appended, a write's
   * body `{}` when absent) and answers its response parsed with the descriptor's schema. Any
   * status but the descriptor's success status throws, naming the status and the body.
   */
  async call<E extends JsonEndpoint>(e: E, ...[input]: CallArgs<E>): Promise<ResponseOf<E>> {
    const answer = await this.send(e, input as RawInput | undefined);
    const expected = e.schemas.status ?? 200;
    if (answer.status !== expected) throw new Error(`${e.method} ${e.path}: ${answer.status} (expected ${expected}) ${JSON.stringify(answer.body)}`);
    return e.schemas.response.parse(answer.body) as ResponseOf<E>;
  }

  /** Sends a call to an endpoint and answers status, body and headers as they came: for refusals and files. */
  send(e: Endpoint, input: RawInput = {}): Promise<Answer> {
    const url = endpointUrl(e, { params: input.params, query: input.query });
    return this.request(e.method, url, e.method === 'GET' ? undefined : (input.body ?? {}));
  }

  /** A call the server must refuse: its status and error body (which must have the one error shape). */
  async refusal(e: Endpoint, input: RawInput = {}): Promise<{ status: number } & ErrorBody['error']> {
    const answer = await this.send(e, input);
    if (answer.status < 400) throw new Error(`${e.method} ${e.path}: expected a refusal, got ${answer.status} ${JSON.stringify(answer.body)}`);
    return { status: answer.status, ...ErrorBodySchema.parse(answer.body).error };
  }

  get(path: string) {
    return this.request('GET', path);
  }
  post(path: string, body?: unknown) {
    return this.request('POST', path, body ?? {});
  }
  patch(path: string, body: unknown) {
    return this.request('PATCH', path, body);
  }

  async login(username: string, password: string): Promise<void> {
    const res = await this.send(authApi.login, { body: { username, password } });
    if (res.status !== 200) throw new Error(`login ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

/**
 * A query string a test writes as text (`status=accepted&sort=chart`) as the query object a
 * descriptor call takes, a repeated key as a list: for tests that loop over raw filters.
 */
export function searchQuery(search: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(search)) {
    const held = query[key];
    query[key] = held === undefined ? value : [...(Array.isArray(held) ? held : [held]), value];
  }
  return query;
}
