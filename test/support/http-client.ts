/**
 * A tiny cookie-keeping HTTP client for integration tests: one instance is one browser
 * session against the real server.
 */
export class TestClient {
  cookie = '';
  constructor(readonly baseUrl: string) {}

  async request(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown; headers: Headers }> {
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
    const res = await this.post('/api/auth/login', { username, password });
    if (res.status !== 200) throw new Error(`login ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
}
