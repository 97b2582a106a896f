import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import express, { Router } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { dispatchByArea } from './route-dispatch';

let server: Server | null = null;
afterEach(async () => {
  const open = server;
  server = null;
  if (open) await new Promise<void>((resolve) => open.close(() => resolve()));
});

/** Which routers a request went through, in order: each router's routes and middleware record their name. */
async function serve(routers: Router[]): Promise<string> {
  const app = express();
  app.use((req, _res, next) => {
    req.headers['x-seen'] = '';
    next();
  });
  app.use(dispatchByArea(routers));
  app.use('/api', (req, res) => void res.status(404).json({ fell_through: true, seen: req.headers['x-seen'] }));
  app.use((error: Error, req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(500).json({ error: error.message, seen: req.headers['x-seen'] });
  });
  const listening = createServer(app);
  server = listening;
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
}

const seen = (req: express.Request, name: string) => {
  req.headers['x-seen'] = `${String(req.headers['x-seen'])}${name};`;
};

function areaRouter(name: string, mount: (router: Router, mark: express.RequestHandler) => void): Router {
  const router = Router();
  mount(router, (req, _res, next) => {
    seen(req, name);
    next();
  });
  return router;
}

async function call(url: string, method = 'GET'): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url, { method });
  return { status: res.status, body: await res.json() };
}

describe('dispatchByArea', () => {
  const items = areaRouter('items', (r, mark) => {
    r.get('/api/items', mark, (_req, res) => void res.json({ from: 'items' }));
    r.get('/api/items/:id/skip', mark, (_req, _res, next) => next());
  });
  const review = areaRouter('review', (r, mark) => {
    r.post('/api/review/next', mark, (_req, res) => void res.json({ from: 'review' }));
    r.get('/api/items/:id/skip', mark, (req, res) => void res.json({ from: 'review', id: req.params.id, seen: req.headers['x-seen'] }));
    r.get('/api/review/fails', mark, () => {
      throw new Error('boom');
    });
  });
  const everywhere = areaRouter('everywhere', (r, mark) => {
    r.use(mark);
  });

  it('runs the routers of the request area in their order, and falls through when none answers', async () => {
    const url = await serve([items, everywhere, review]);
    expect(await call(`${url}/api/review/next`, 'POST')).toEqual({ status: 200, body: { from: 'review' } });
    // Both routers of the area, in order, and the one with middleware between them.
    expect(await call(`${url}/api/items/7/skip`)).toEqual({ status: 200, body: { from: 'review', id: '7', seen: 'items;everywhere;review;' } });
    // No router has a route in this area: only the one with middleware saw it, then the 404.
    expect(await call(`${url}/api/charts`)).toEqual({ status: 404, body: { fell_through: true, seen: 'everywhere;' } });
    // A route of the area that is not there (method or path): the same 404 as without the dispatcher.
    expect(await call(`${url}/api/review/next`)).toEqual({ status: 404, body: { fell_through: true, seen: 'everywhere;' } });
  });

  it('matches areas case-insensitively and with a trailing slash, as the routers do', async () => {
    const url = await serve([items, review]);
    expect(await call(`${url}/API/Review/Next/`, 'POST')).toEqual({ status: 200, body: { from: 'review' } });
    expect(await call(`${url}/api/ITEMS`)).toEqual({ status: 200, body: { from: 'items' } });
  });

  it('passes an error on to the error handler without running the other routers', async () => {
    const url = await serve([review, everywhere]);
    expect(await call(`${url}/api/review/fails`)).toEqual({ status: 500, body: { error: 'boom', seen: 'review;' } });
  });

  it('lists its routers as a stack of layers, as app.use would have', () => {
    expect(dispatchByArea([items, review]).stack.map((layer) => layer.handle)).toEqual([items, review]);
  });
});
