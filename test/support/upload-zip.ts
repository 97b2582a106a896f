import type { TestClient } from './http-client';

/** POST /api/imports as a browser sends it: the zip as the body, options in the query. */
export async function uploadZip(baseUrl: string, client: TestClient, zip: Buffer, query: Record<string, string>): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${baseUrl}/api/imports?${new URLSearchParams(query).toString()}`, {
    method: 'POST',
    headers: { cookie: client.cookie, 'content-type': 'application/zip' },
    body: new Uint8Array(zip),
  });
  return { status: response.status, body: await response.json() };
}
