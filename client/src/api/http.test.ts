import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { endpoint } from '@shared/api/endpoint';
import { IdParamSchema, PageQuerySchema } from '@shared/api/common';
import { ApiError, attachmentName, call, errorMessage } from './http';

const ThingSchema = z.object({ thing: z.object({ id: z.number(), name: z.string() }) });
const things = {
  list: endpoint('GET', '/api/things', { query: PageQuerySchema.extend({ q: z.string().optional() }), response: z.object({ total: z.number() }) }),
  rename: endpoint('PATCH', '/api/things/:id', { params: IdParamSchema, body: z.object({ name: z.string() }), response: ThingSchema }),
  archive: endpoint('POST', '/api/things/:id/archive', { params: IdParamSchema, response: ThingSchema }),
};

type Sent = { url: string; init: RequestInit };

/** Answers every fetch with `status` and `body`, and records what was sent. */
function answer(status: number, body: unknown): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    sent.push({ url, init });
    return Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
  });
  return sent;
}

afterEach(() => vi.unstubAllGlobals());

describe('call', () => {
  it('sends a GET to the path with the query, no body, and returns the parsed answer', async () => {
    const sent = answer(200, { total: 3 });
    expect(await call(things.list, { query: { page: 2, q: '' } })).toEqual({ total: 3 });
    expect(sent[0]?.url).toBe('/api/things?page=2');
    expect(sent[0]?.init).toMatchObject({ method: 'GET', credentials: 'same-origin' });
    expect(sent[0]?.init.body).toBeUndefined();
  });

  it('fills path params and sends the body as JSON with the descriptor’s method', async () => {
    const sent = answer(200, { thing: { id: 7, name: 'new' } });
    expect(await call(things.rename, { params: { id: 7 }, body: { name: 'new' } })).toEqual({ thing: { id: 7, name: 'new' } });
    expect(sent[0]?.url).toBe('/api/things/7');
    expect(sent[0]?.init.method).toBe('PATCH');
    expect(sent[0]?.init.headers).toMatchObject({ 'Content-Type': 'application/json' });
    expect(sent[0]?.init.body).toBe('{"name":"new"}');
  });

  it('sends {} for a write without a body (the server takes writes as JSON only)', async () => {
    const sent = answer(200, { thing: { id: 7, name: 'x' } });
    await call(things.archive, { params: { id: 7 } });
    expect(sent[0]?.init).toMatchObject({ method: 'POST', body: '{}' });
  });

  it('throws the server’s error code and field as an ApiError', async () => {
    answer(409, { error: { code: 'conflict', message: 'taken', field: 'name' } });
    await expect(call(things.rename, { params: { id: 7 }, body: { name: 'x' } })).rejects.toMatchObject({ status: 409, code: 'conflict', field: 'name' });
  });

  it('refuses an answer its response schema does not accept', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    answer(200, { thing: { id: 'seven' } });
    const failure = call(things.archive, { params: { id: 7 } });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ code: 'internal' });
  });
});

describe('errorMessage', () => {
  it('names a field in words once, never by its request path', () => {
    expect(errorMessage(new ApiError(400, 'bad_request', 'body.budget_cost: Budget cost must be more than 0', 'body.budget_cost'))).toBe('Budget cost must be more than 0');
    expect(errorMessage(new ApiError(400, 'bad_request', 'body.qa_id: no factual QA 5', 'body.qa_id'))).toBe('QA id: no factual QA 5');
    expect(errorMessage(new ApiError(409, 'conflict', 'taken', 'name'))).toBe('Name: taken');
    expect(errorMessage(new ApiError(409, 'conflict', 'split "x" cannot be deleted'))).toBe('split "x" cannot be deleted');
  });
});

describe('attachmentName', () => {
  it("reads the file name of express's Content-Disposition, quoted or not, the UTF-8 form first", () => {
    expect(attachmentName('attachment; filename="chart-hqa.json"')).toBe('chart-hqa.json');
    expect(attachmentName('attachment; filename=hqa-page.zip')).toBe('hqa-page.zip');
    expect(attachmentName(`attachment; filename="x.json"; filename*=UTF-8''d%C3%A9j%C3%A0.json`)).toBe('déjà.json');
    expect(attachmentName('attachment')).toBeUndefined();
    expect(attachmentName(null)).toBeUndefined();
  });
});
