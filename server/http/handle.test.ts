import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import express from 'express';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { IdParamSchema } from '../../shared/api/common';
import { endpoint } from '../../shared/api/endpoint';
import { DomainError, notFound } from '../domain-error';
import { errorHandler } from './error-handler';
import { apiRouter, handle, mountedEndpoint, type ApiRouter } from './handle';

const ThingSchema = z.object({ thing: z.object({ id: z.number().int(), name: z.string() }) });
const getThing = endpoint('GET', '/api/things/:id', { params: IdParamSchema, query: z.object({ upper: z.enum(['true', 'false']).default('false') }), response: ThingSchema });
const addThing = endpoint('POST', '/api/things', { body: z.object({ name: z.string().min(2) }), response: ThingSchema, status: 201 });
const brokenThing = endpoint('GET', '/api/broken', { response: ThingSchema });

// Public endpoints never read a session, so no database is needed to mount them.
const noDb = undefined as unknown as Db;

let server: Server | null = null;
afterEach(async () => {
  const open = server;
  server = null;
  if (open) await new Promise<void>((resolve) => open.close(() => resolve()));
});

async function serve(mount: (api: ApiRouter) => void): Promise<string> {
  const app = express();
  app.use(express.json());
  const api = apiRouter(noDb);
  mount(api);
  app.use(api.router);
  app.use(errorHandler(pino({ level: 'silent' })));
  const listening = createServer(app);
  server = listening;
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
}

async function call(url: string, init?: RequestInit): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, init);
  return { status: res.status, body: await res.json() };
}

const post = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('handle', () => {
  it('passes parsed params and query (z.output) and answers the result as JSON', async () => {
    const url = await serve((api) =>
      handle(api, getThing, 'public', ({ params, query }) => ({ thing: { id: params.id, name: query.upper === 'true' ? 'BOLT' : 'bolt' } })),
    );
    expect(await call(`${url}/api/things/7?upper=true`)).toEqual({ status: 200, body: { thing: { id: 7, name: 'BOLT' } } });
    expect(await call(`${url}/api/things/7`)).toEqual({ status: 200, body: { thing: { id: 7, name: 'bolt' } } });
  });

  it('answers a malformed path id 404 and a bad query or body 400 naming the field, as parseInput does', async () => {
    const url = await serve((api) => {
      handle(api, getThing, 'public', ({ params }) => ({ thing: { id: params.id, name: 'bolt' } }));
      handle(api, addThing, 'public', ({ body }) => ({ thing: { id: 1, name: body.name } }));
    });
    expect(await call(`${url}/api/things/0x10`)).toMatchObject({ status: 404, body: { error: { code: 'not_found', field: 'params.id' } } });
    expect(await call(`${url}/api/things/3?upper=maybe`)).toMatchObject({ status: 400, body: { error: { code: 'bad_request', field: 'query.upper' } } });
    expect(await call(`${url}/api/things`, post({ name: 'x' }))).toMatchObject({ status: 400, body: { error: { field: 'body.name' } } });
  });

  it("answers with the descriptor's status, sync or async", async () => {
    const url = await serve((api) => handle(api, addThing, 'public', async ({ body }) => Promise.resolve({ thing: { id: 2, name: body.name } })));
    expect(await call(`${url}/api/things`, post({ name: 'nut' }))).toEqual({ status: 201, body: { thing: { id: 2, name: 'nut' } } });
  });

  it("answers a domain error, or a subclass carrying its own code, with its code's status and its message and field, sync or async", async () => {
    class ShelfFullError extends DomainError {
      constructor(shelf: string) {
        super('conflict', `shelf ${shelf} is full`);
      }
    }
    const url = await serve((api) => {
      handle(api, getThing, 'public', ({ params }) => {
        throw notFound(`thing ${params.id}`);
      });
      handle(api, addThing, 'public', async ({ body }) => {
        await Promise.resolve();
        if (body.name === 'full') throw new ShelfFullError('B');
        throw new DomainError('too_large_to_draw', 'too big to draw', 'body.name');
      });
    });
    expect(await call(`${url}/api/things/4`)).toEqual({ status: 404, body: { error: { code: 'not_found', message: 'thing 4 not found' } } });
    expect(await call(`${url}/api/things`, post({ name: 'full' }))).toEqual({ status: 409, body: { error: { code: 'conflict', message: 'shelf B is full' } } });
    expect(await call(`${url}/api/things`, post({ name: 'huge' }))).toEqual({ status: 422, body: { error: { code: 'too_large_to_draw', message: 'too big to draw', field: 'body.name' } } });
  });

  it('fails loudly (500) outside production when a handler answers what its response schema refuses', async () => {
    // Typed as the schema wants it, shaped wrong at runtime: the drift a cast or a stale row can bring.
    const drifted = { thing: { id: 'three', name: 'bolt' } } as unknown as z.input<typeof ThingSchema>;
    const url = await serve((api) => handle(api, brokenThing, 'public', () => drifted));
    expect(await call(`${url}/api/broken`)).toMatchObject({ status: 500, body: { error: { code: 'internal' } } });
  });

  it('sends the result unchecked in production', async () => {
    const drifted = { thing: { id: 'three', name: 'bolt' } } as unknown as z.input<typeof ThingSchema>;
    const before = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      const url = await serve((api) => handle(api, brokenThing, 'public', () => drifted));
      expect(await call(`${url}/api/broken`)).toEqual({ status: 200, body: drifted });
    } finally {
      if (before === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = before;
    }
  });

  it('records which descriptor each mounted handler serves', () => {
    const api = apiRouter(noDb);
    handle(api, getThing, 'public', ({ params }) => ({ thing: { id: params.id, name: 'bolt' } }));
    const layer = (api.router.stack as { route?: { path: string; stack: { handle: unknown }[] } }[])[0];
    expect(layer?.route?.path).toBe('/api/things/:id');
    expect(mountedEndpoint(layer?.route?.stack.at(-1)?.handle)).toBe(getThing);
  });
});
