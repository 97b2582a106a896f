import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import type { Db } from '../../db/database';
import type { User } from '../../shared/api/auth';
import type { Endpoint, HandlerResult, ParsedInput } from '../../shared/api/endpoint';
import type { Role } from '../../shared/domain/roles';
import { requireRole } from '../auth/auth-middleware';
import { parseInput } from './validate';

/** Who may call an endpoint: at least this role (by the session cookie), or anyone. */
export type Access = Role | 'public';

/** A domain's routes: an express router and the database its role checks read sessions from. */
export interface ApiRouter {
  readonly router: Router;
  readonly db: Db;
}

export function apiRouter(db: Db): ApiRouter {
  return { router: Router(), db };
}

/** What a handler receives: the request parsed by its descriptor's schemas, and who asked. */
export type HandlerInput<E extends Endpoint, A extends Access> = ParsedInput<E['schemas']> & {
  readonly user: A extends 'public' ? undefined : User;
  readonly req: Request;
  readonly res: Response;
};

export type EndpointHandler<E extends Endpoint, A extends Access> = (input: HandlerInput<E, A>) => HandlerResult<E> | Promise<HandlerResult<E>>;

export interface HandleOptions {
  /** Middleware run after the role check and before parsing (rate limits, a bigger body parser). */
  readonly before?: readonly RequestHandler[];
}

/**
 * Which descriptor each mounted handler serves, and who may call it: the contract test walks
 * the router stack with it, and the security test holds docs/security.md's route table to it.
 */
const mounted = new WeakMap<object, { endpoint: Endpoint; access: Access }>();

/** The descriptor a route handler was mounted from by `handle`, if it was. */
export function mountedEndpoint(handler: unknown): Endpoint | undefined {
  return typeof handler === 'function' ? mounted.get(handler)?.endpoint : undefined;
}

/** Who may call a route handler mounted by `handle` (its least role, or 'public'), if it was so mounted. */
export function mountedAccess(handler: unknown): Access | undefined {
  return typeof handler === 'function' ? mounted.get(handler)?.access : undefined;
}

/**
 * Mounts one endpoint: authenticate and authorise (`access`), run `options.before`, parse
 * params (a malformed id is 404), query and body with the descriptor's schemas (400 naming the
 * field), call the handler, and answer its result as JSON with the descriptor's status. A
 * `'file'` endpoint's handler writes `res` itself. Outside production the result is also
 * parsed with the response schema, so a handler that drifts from the contract fails loudly
 * (500) in tests and development instead of surprising the client.
 */
export function handle<E extends Endpoint, A extends Access>(api: ApiRouter, e: E, access: A, handler: NoInfer<EndpointHandler<E, A>>, options: HandleOptions = {}): void {
  const { params, query, body, response, status = 200 } = e.schemas;
  const checkResponse = response !== 'file' && process.env.NODE_ENV !== 'production';
  const answer = (res: Response, result: unknown): void => {
    if (response === 'file') return;
    if (checkResponse) assertResponse(e, response, result);
    sendJson(res, status, result);
  };
  const run: RequestHandler = (req, res) => {
    const input = {
      params: params ? parseInput(params, req.params, 'params') : undefined,
      query: query ? parseInput(query, req.query, 'query') : undefined,
      body: body ? parseInput(body, req.body, 'body') : undefined,
      user: req.user,
      req,
      res,
    } as HandlerInput<E, A>; // the parsed parts are z.output of the descriptor's own schemas, as ParsedInput says
    const result = handler(input);
    // A sync handler answers in the same tick, as the routes did before descriptors.
    if (result instanceof Promise) return result.then((value) => answer(res, value));
    answer(res, result);
  };
  mounted.set(run, { endpoint: e, access });
  const guard: RequestHandler[] = access === 'public' ? [] : [requireRole(api.db, access)];
  const chain = [...guard, ...(options.before ?? []), run];
  switch (e.method) {
    case 'GET':
      api.router.get(e.path, ...chain);
      break;
    case 'POST':
      api.router.post(e.path, ...chain);
      break;
    case 'PATCH':
      api.router.patch(e.path, ...chain);
      break;
    case 'PUT':
      api.router.put(e.path, ...chain);
      break;
    case 'DELETE':
      api.router.delete(e.path, ...chain);
      break;
  }
}

/**
 * What `res.status(status).json(result)` sends, without the work express does around it for
 * any body (content-type lookup, a Buffer copy, the freshness check for an ETag it does not
 * make here: app.ts turns ETags off): on a claim that was a tenth of the answer's time
 * (bench/review.ts profile). Node itself leaves the body out of an answer to HEAD.
 */
function sendJson(res: Response, status: number, result: unknown): void {
  // An undefined result (no handler of a JSON endpoint returns one) is an empty body, as express sends.
  const body = (JSON.stringify(result) as string | undefined) ?? '';
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

function assertResponse(e: Endpoint, schema: z.ZodType, result: unknown): void {
  const parsed = schema.safeParse(result);
  if (parsed.success) return;
  const issue = parsed.error.issues[0];
  const where = issue?.path.map(String).join('.') || '(root)';
  throw new Error(`${e.method} ${e.path} answered what its response schema refuses: ${where}: ${issue?.message ?? 'invalid'}`);
}
