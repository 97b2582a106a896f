import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet from 'helmet';
import { servedOverHttps, type OriginPolicy } from './request-origin';

const CSP_DIRECTIVES = { 'img-src': ["'self'", 'data:', 'blob:'], 'connect-src': ["'self'", 'ws:', 'wss:'] };

type Header = readonly [name: string, value: string | number | readonly string[]];

/**
 * The headers a helmet middleware sets, found by running it once on a response that only
 * records them. Ours are the same on every response (no nonce, no per-request directive), and
 * running helmet's eleven middlewares on each request was a tenth of a claim's time in the
 * router (bench/review.ts profile). Null when the middleware did not answer at once, as a
 * helmet with per-request work would not: then it runs on every request as before.
 */
function recordedHeaders(middleware: ReturnType<typeof helmet>): Header[] | null {
  const headers: Header[] = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => headers.push([name, value]),
    removeHeader: () => undefined,
    getHeader: () => undefined,
  };
  let done = false;
  middleware({ headers: {} } as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => (done = error === undefined));
  return done ? headers : null;
}

/** Sets the recorded headers (helmet's output), or runs helmet when they could not be recorded. */
function fixedHeaders(middleware: ReturnType<typeof helmet>): RequestHandler {
  const headers = recordedHeaders(middleware);
  if (headers === null) return middleware;
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

/**
 * Helmet's headers, fitted to how the page reached the browser. Over HTTPS: all of them,
 * HSTS and `upgrade-insecure-requests` included. Over plain HTTP (a LAN address or host
 * name, no TLS) those two would break the page — the browser would fetch every script over
 * an https:// that does not exist and show a blank page (browsers exempt only loopback) —
 * and Cross-Origin-Opener-Policy is ignored with a console error, so they are left out.
 * (Express's own X-Powered-By, which helmet would remove, is disabled in app.ts.)
 */
export function securityHeaders(policy: OriginPolicy): RequestHandler {
  const overHttps = fixedHeaders(helmet({ contentSecurityPolicy: { directives: CSP_DIRECTIVES } }));
  const overHttp = fixedHeaders(
    helmet({
      contentSecurityPolicy: { directives: { ...CSP_DIRECTIVES, 'upgrade-insecure-requests': null } },
      strictTransportSecurity: false,
      crossOriginOpenerPolicy: false,
    }),
  );
  return (req, res, next) => (servedOverHttps(req, policy) ? overHttps : overHttp)(req, res, next);
}
