import { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';

/**
 * The request and response classes of one HTTP server, whose objects are born with the
 * prototypes express gives them.
 *
 * express sets the prototype of every request and response to its own (`app.request`,
 * `app.response`) as the request arrives. In V8 that change leaves the object with a shape of its
 * own, and each property added after it (params, body, route, statusCode, locals ...) makes
 * another: about a dozen new shapes per request, which outlived the request and made up most of
 * what the young-generation collections promoted on the review hot path (bench/review.ts). Built
 * by these classes, the objects already have express's prototypes: express's own assignment
 * changes nothing, and their properties follow shapes shared by every request.
 *
 * One pair per server, as express's prototypes are per app (they carry `app`). Until `adopt`
 * is called the objects are plain Node ones (the server answers "starting" then).
 */
export interface AppObjects {
  readonly Request: typeof IncomingMessage;
  readonly Response: typeof ServerResponse;
  /** Makes `app`'s request and response prototypes the ones these classes construct with. */
  adopt(app: Express): void;
}

export function appObjects(): AppObjects {
  class Request extends IncomingMessage {}
  class Response<R extends IncomingMessage = IncomingMessage> extends ServerResponse<R> {}
  return {
    Request,
    Response,
    adopt(app) {
      // express's app.request is an object over its request prototype holding `app`: the class's
      // prototype takes its place, over the same prototype and with the same `app`.
      for (const [proto, own] of [
        [Request.prototype, app.request],
        [Response.prototype, app.response],
      ] as const) {
        Object.setPrototypeOf(proto, Object.getPrototypeOf(own) as object);
        Object.defineProperties(proto, Object.getOwnPropertyDescriptors(own));
      }
      app.request = Request.prototype as Express['request'];
      app.response = Response.prototype as Express['response'];
    },
  };
}
