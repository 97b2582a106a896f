import { hostname, networkInterfaces } from 'node:os';
import type { RequestHandler } from 'express';
import type { Config } from '../config';
import { DomainError } from '../domain-error';
import { requestHost, type RequestLike } from './request-origin';

/** What the host check reads from the configuration. */
export type HostPolicy = Pick<Config, 'allowedHosts' | 'trustProxy'>;

/** A Host value or an allow-list entry: its name (lower case, no trailing dot, IPv6 in brackets) and its port ('' when none, or the default). */
interface HostPort {
  name: string;
  port: string;
}

/** Parses `host[:port]` as a browser sends it in Host, or null when it is not one. */
export function parseHost(value: string): HostPort | null {
  const trimmed = value.trim();
  if (trimmed === '' || /[\s/?#@\\]/.test(trimmed)) return null;
  // A bare IPv6 address (as os.networkInterfaces gives them) needs brackets to read as a host.
  const bracketed = !trimmed.startsWith('[') && trimmed.split(':').length > 2 ? `[${trimmed}]` : trimmed;
  try {
    const url = new URL(`http://${bracketed}`);
    return { name: url.hostname.replace(/\.$/, ''), port: url.port };
  } catch {
    return null;
  }
}

/**
 * The names a browser may reach this machine by without anyone's DNS: loopback, the host name,
 * every address of its interfaces (as they are at start), and the address it was told to bind
 * when that is one (not 0.0.0.0 or ::).
 */
export function defaultAllowedHosts(bindHost: string): string[] {
  const addresses = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((entry) => entry.address));
  const bound = bindHost === '0.0.0.0' || bindHost === '::' ? [] : [bindHost];
  return [...new Set(['localhost', '127.0.0.1', '::1', hostname(), ...addresses, ...bound])];
}

/**
 * Whether a request's Host is one this server answers to. DNS rebinding points a name the
 * attacker owns at this machine: the page is then same-origin with itself, so the origin check
 * passes, and only the Host header its browser sends tells the request apart. An entry without a
 * port takes the name on any port; one with a port, that port only.
 */
export function hostChecker(policy: HostPolicy): (req: RequestLike) => string | null {
  const entries = policy.allowedHosts.map(parseHost).filter((entry): entry is HostPort => entry !== null);
  const allowed = (host: HostPort) => entries.some((entry) => entry.name === host.name && (entry.port === '' || entry.port === host.port));
  return (req) => {
    const raw = requestHost(req, policy);
    if (raw === undefined) return 'the request names no Host';
    const host = parseHost(raw);
    if (host !== null && allowed(host)) return null;
    return `Host ${raw} is not a name this server answers to: if browsers reach it by that name, add it to HQA_ALLOWED_HOSTS`;
  };
}

/** Refuses (403 `bad_host`) every request whose Host is not on the allow-list, before anything else reads it. */
export function hostGuard(policy: HostPolicy): RequestHandler {
  const refusal = hostChecker(policy);
  return (req, _res, next) => {
    const reason = refusal(req);
    next(reason === null ? undefined : new DomainError('bad_host', reason, 'headers.host'));
  };
}
