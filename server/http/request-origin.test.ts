import type { IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { crossOriginRefusal, serverOrigin, servedOverHttps, type OriginPolicy } from './request-origin';

const DIRECT: OriginPolicy = { trustProxy: false, cookieSecure: false };
const PROXIED: OriginPolicy = { trustProxy: true, cookieSecure: false };

const request = (headers: IncomingHttpHeaders, encrypted = false) => ({ headers, socket: encrypted ? { encrypted: true } : {} });

describe('servedOverHttps', () => {
  it('is false for plain HTTP, whatever an untrusted peer claims in X-Forwarded-Proto', () => {
    expect(servedOverHttps(request({ host: 'hqa.lan' }), DIRECT)).toBe(false);
    expect(servedOverHttps(request({ host: 'hqa.lan', 'x-forwarded-proto': 'https' }), DIRECT)).toBe(false);
  });
  it('is true on a TLS socket, with HQA_COOKIE_SECURE, or behind a trusted proxy that says https', () => {
    expect(servedOverHttps(request({ host: 'hqa.lan' }, true), DIRECT)).toBe(true);
    expect(servedOverHttps(request({ host: 'hqa.lan' }), { trustProxy: false, cookieSecure: true })).toBe(true);
    expect(servedOverHttps(request({ host: 'hqa.lan', 'x-forwarded-proto': 'https, http' }), PROXIED)).toBe(true);
    expect(servedOverHttps(request({ host: 'hqa.lan', 'x-forwarded-proto': 'http' }), PROXIED)).toBe(false);
  });
});

describe('serverOrigin', () => {
  it('is the Host the browser addressed, default ports dropped', () => {
    expect(serverOrigin(request({ host: '192.0.2.2:5174' }), DIRECT)).toBe('http://192.0.2.2:5174');
    expect(serverOrigin(request({ host: 'HQA.lan:80' }), DIRECT)).toBe('http://hqa.lan');
    expect(serverOrigin(request({}), DIRECT)).toBeNull();
  });
  it('believes X-Forwarded-Host only from a trusted proxy', () => {
    const headers = { host: '127.0.0.1:5174', 'x-forwarded-host': 'hqa.example.org', 'x-forwarded-proto': 'https' };
    expect(serverOrigin(request(headers), PROXIED)).toBe('https://hqa.example.org');
    expect(serverOrigin(request(headers), DIRECT)).toBe('http://127.0.0.1:5174');
  });
});

describe('crossOriginRefusal', () => {
  it('lets through a request with neither Origin nor Sec-Fetch-Site (the CLI, curl, scripts)', () => {
    expect(crossOriginRefusal(request({ host: '127.0.0.1:5174' }), DIRECT)).toBeNull();
  });
  it("lets through the server's own origin and a same-origin Sec-Fetch-Site", () => {
    expect(crossOriginRefusal(request({ host: '127.0.0.1:5174', origin: 'http://127.0.0.1:5174' }), DIRECT)).toBeNull();
    expect(crossOriginRefusal(request({ host: '127.0.0.1:5174', 'sec-fetch-site': 'same-origin' }), DIRECT)).toBeNull();
  });
  it('refuses another port of the same host (same-site), another host, and an opaque origin', () => {
    expect(crossOriginRefusal(request({ host: '127.0.0.1:5174', origin: 'http://127.0.0.1:6000' }), DIRECT)).toMatch(/not this server's \(http:\/\/127\.0\.0\.1:5174\)/);
    expect(crossOriginRefusal(request({ host: '127.0.0.1:5174', origin: 'http://evil.example' }), DIRECT)).not.toBeNull();
    expect(crossOriginRefusal(request({ host: '127.0.0.1:5174', origin: 'null' }), DIRECT)).not.toBeNull();
  });
  it('refuses a same-site or cross-site Sec-Fetch-Site even without Origin', () => {
    expect(crossOriginRefusal(request({ host: '127.0.0.1:5174', 'sec-fetch-site': 'same-site' }), DIRECT)).toMatch(/same-site/);
    expect(crossOriginRefusal(request({ host: '127.0.0.1:5174', 'sec-fetch-site': 'cross-site' }), DIRECT)).toMatch(/cross-site/);
  });
  it('says what to set when only the scheme differs (HTTPS ends at a proxy the server was not told of)', () => {
    expect(crossOriginRefusal(request({ host: 'hqa.example.org', origin: 'https://hqa.example.org' }), DIRECT)).toMatch(/HQA_TRUST_PROXY/);
    expect(crossOriginRefusal(request({ host: 'hqa.example.org', origin: 'https://hqa.example.org', 'x-forwarded-proto': 'https' }), PROXIED)).toBeNull();
  });
});
