import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { defaultAllowedHosts, hostChecker, parseHost } from './allowed-hosts';

const asked = (host: string | undefined, extra: Record<string, string> = {}) => ({ headers: { ...(host === undefined ? {} : { host }), ...extra }, socket: {} });

describe('parseHost', () => {
  it('reads a Host as browsers send it: lower case, no trailing dot, IPv6 in brackets, the default port dropped', () => {
    expect(parseHost('Example.ORG.:5174')).toEqual({ name: 'example.org', port: '5174' });
    expect(parseHost('[::1]:5174')).toEqual({ name: '[::1]', port: '5174' });
    expect(parseHost('fe80::1')).toEqual({ name: '[fe80::1]', port: '' });
    expect(parseHost('example.org:80')).toEqual({ name: 'example.org', port: '' });
  });
  it('refuses what is no host', () => {
    for (const bad of ['', 'http://x/', 'a b', 'x/y', 'user@x', 'x:99999']) expect(parseHost(bad), bad).toBeNull();
  });
});

describe('the host allow-list', () => {
  const check = hostChecker({ allowedHosts: ['localhost', '127.0.0.1', 'hqa.example.org', 'lab-box:8443'], trustProxy: false });
  it('takes a listed name on any port, and a name listed with a port on that port only', () => {
    expect(check(asked('localhost:5174'))).toBeNull();
    expect(check(asked('HQA.example.org'))).toBeNull();
    expect(check(asked('lab-box:8443'))).toBeNull();
    expect(check(asked('lab-box:8444'))).toMatch(/Host lab-box:8444 is not a name this server answers to.*HQA_ALLOWED_HOSTS/);
  });
  it('refuses any other name, and a request naming none', () => {
    expect(check(asked('rebound.attacker.example:5174'))).toMatch(/not a name this server answers to/);
    expect(check(asked('127.0.0.1.attacker.example'))).not.toBeNull();
    expect(check(asked(undefined))).toBe('the request names no Host');
  });
  it("reads a trusted proxy's X-Forwarded-Host, and only a trusted proxy's", () => {
    const proxied = hostChecker({ allowedHosts: ['127.0.0.1', 'hqa.example.org'], trustProxy: true });
    expect(proxied(asked('127.0.0.1:5174', { 'x-forwarded-host': 'hqa.example.org' }))).toBeNull();
    expect(proxied(asked('127.0.0.1:5174', { 'x-forwarded-host': 'rebound.example' }))).not.toBeNull();
    expect(check(asked('127.0.0.1:5174', { 'x-forwarded-host': 'rebound.example' }))).toBeNull();
  });
  it('holds loopback, the host name and the bind address by default; not 0.0.0.0', () => {
    expect(defaultAllowedHosts('10.1.2.3')).toEqual(expect.arrayContaining(['localhost', '127.0.0.1', '::1', hostname(), '10.1.2.3']));
    expect(defaultAllowedHosts('0.0.0.0')).not.toContain('0.0.0.0');
  });
});
