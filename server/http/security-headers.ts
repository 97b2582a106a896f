import type { RequestHandler } from 'express';
import helmet from 'helmet';
import { servedOverHttps, type OriginPolicy } from './request-origin';

const CSP_DIRECTIVES = { 'img-src': ["'self'", 'data:', 'blob:'], 'connect-src': ["'self'", 'ws:', 'wss:'] };

/**
 * Helmet's headers, fitted to how the page reached the browser. Over HTTPS: all of them,
 * HSTS and `upgrade-insecure-requests` included. Over plain HTTP (a LAN address or host
 * name, no TLS) those two would break the page — the browser would fetch every script over
 * an https:// that does not exist and show a blank page (browsers exempt only loopback) —
 * and Cross-Origin-Opener-Policy is ignored with a console error, so they are left out.
 */
export function securityHeaders(policy: OriginPolicy): RequestHandler {
  const overHttps = helmet({ contentSecurityPolicy: { directives: CSP_DIRECTIVES } });
  const overHttp = helmet({
    contentSecurityPolicy: { directives: { ...CSP_DIRECTIVES, 'upgrade-insecure-requests': null } },
    strictTransportSecurity: false,
    crossOriginOpenerPolicy: false,
  });
  return (req, res, next) => (servedOverHttps(req, policy) ? overHttps : overHttp)(req, res, next);
}
