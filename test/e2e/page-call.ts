import type { Page } from 'playwright-core';
import { endpointUrl, type Endpoint } from '../../shared/api/endpoint';
import type { RawInput } from '../support/http-client';

/**
 * Sends a call to an endpoint from inside the page, as its signed-in browser sends it (its
 * cookies, its Origin): the status and the JSON body, if any. The descriptor gives the method
 * and the path, as `TestClient.send` does outside the browser.
 */
export async function pageSend(page: Page, e: Endpoint, input: RawInput = {}): Promise<{ status: number; body: unknown }> {
  const url = endpointUrl(e, { params: input.params, query: input.query });
  const body = e.method === 'GET' ? null : JSON.stringify(input.body ?? {});
  return page.evaluate(
    async ({ url, method, body }) => {
      const response = await fetch(url, body === null ? { method } : { method, headers: { 'content-type': 'application/json' }, body });
      const type = response.headers.get('content-type') ?? '';
      return { status: response.status, body: type.includes('json') ? ((await response.json()) as unknown) : null };
    },
    { url, method: e.method, body },
  );
}
