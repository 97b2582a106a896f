import type { RequestHandler, Router } from 'express';

/** What an express 5 router's stack holds: a route (its path) or middleware (no route). */
interface StackLayer {
  route?: { path: unknown };
}

/** The API's paths start here; the segment after it names the area (`review`, `items`, …). */
const API_PREFIX = '/api/';

/**
 * The area segment of an API path (`/api/review/next` → `review`), lower-cased as the routers
 * match (case-insensitive), or null outside the API or when the segment is a parameter.
 */
function areaOf(path: string): string | null {
  if (!path.toLowerCase().startsWith(API_PREFIX)) return null;
  const end = path.indexOf('/', API_PREFIX.length);
  const area = path.slice(API_PREFIX.length, end === -1 ? undefined : end).toLowerCase();
  return area === '' || /[:*{(]/.test(area) ? null : area;
}

/** The areas a router's routes live in, or null when it must see every request (middleware, a parameter or non-API path). */
function areasOf(router: Router): Set<string> | null {
  const areas = new Set<string>();
  for (const layer of router.stack as StackLayer[]) {
    const path = layer.route?.path;
    if (typeof path !== 'string') return null;
    const area = areaOf(path);
    if (area === null) return null;
    areas.add(area);
  }
  return areas;
}

/** The dispatcher, with the routers it holds listed as a router's stack would (the API contract test walks it). */
export type AreaDispatcher = RequestHandler & { readonly stack: readonly { readonly handle: Router }[] };

/**
 * The domain routers as one middleware that runs, in their order, only those that have a route
 * in the request's area (`/api/<area>/…`) — what `app.use(...routers)` does, without walking
 * every route of every other router first: a claim went past ~70 routes of other areas before
 * reaching the review router, the router's matching a tenth of the server's CPU per request
 * (bench/review.ts profile). A router with middleware or a path outside `/api/<literal>` sees
 * every request, as before. Routes match as the routers do: case-insensitively; a path no
 * router's area holds falls through to what follows (the API's 404).
 */
export function dispatchByArea(routers: readonly Router[]): AreaDispatcher {
  const areas = routers.map(areasOf);
  const everywhere = routers.filter((_, i) => areas[i] === null);
  const byArea = new Map<string, Router[]>();
  for (const set of areas) for (const area of set ?? []) byArea.set(area, []);
  for (const [area, list] of byArea) list.push(...routers.filter((_, i) => areas[i] === null || areas[i]?.has(area)));

  const dispatch: RequestHandler = (req, res, next) => {
    const area = areaOf(req.path);
    const chain = (area === null ? undefined : byArea.get(area)) ?? everywhere;
    let index = 0;
    const step = (error?: unknown): void => {
      // An error skips the other routers, as between app-level layers; a router that is done (or `next('router')`) passes on.
      if (error) return next(error);
      const router = chain[index++];
      if (router === undefined) return next();
      router(req, res, step);
    };
    step();
  };
  return Object.assign(dispatch, { stack: routers.map((handle) => ({ handle })) });
}
