import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../shared/errors';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
let admin: TestClient;

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  admin = new TestClient(server.url);
  await admin.login('admin', server.server.adminPassword ?? '');
});
afterAll(async () => {
  await server.close();
});

/** A request with the admin's session, exactly these headers and this raw body, over node:http (which sends a GET body too). */
function send(method: string, path: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.url}${path}`, { method, headers: { cookie: admin.cookie, 'content-length': String(body.length), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const user = (username: string) => Buffer.from(JSON.stringify({ username, role: 'reviewer', password: 'body-pass-123' }));
const errorOf = (res: { body: unknown }) => ErrorBodySchema.parse(res.body).error;

describe('request bodies the server does not read are clear 4xx errors, never 500', () => {
  it('refuses a charset other than UTF-8 with 415 unsupported_media_type naming the header', async () => {
    const latin1 = Buffer.from('{"username":"espa\u00f1a","role":"reviewer","password":"body-pass-123"}', 'latin1');
    const res = await send('POST', '/api/users', { 'content-type': 'application/json; charset=latin1' }, latin1);
    expect(res.status).toBe(415);
    expect(errorOf(res)).toMatchObject({ code: 'unsupported_media_type', field: 'headers.content-type' });
    expect(errorOf(res).message).toMatch(/latin1/);
  });
  it('answers a GET carrying a latin1 body with 415 as well (the body parser, not the write guard, refuses it)', async () => {
    const res = await send('GET', '/api/auth/me', { 'content-type': 'application/json; charset=latin1' }, Buffer.from('{}'));
    expect(res.status).toBe(415);
    expect(errorOf(res)).toMatchObject({ code: 'unsupported_media_type', field: 'headers.content-type' });
  });
  it('refuses a Content-Encoding it does not inflate with 415 naming the header', async () => {
    for (const encoding of ['x-compress-7', 'zstd', 'gzip, gzip']) {
      const res = await send('POST', '/api/users', { 'content-type': 'application/json', 'content-encoding': encoding }, user('encoded'));
      expect(res.status).toBe(415);
      expect(errorOf(res)).toMatchObject({ code: 'unsupported_media_type', field: 'headers.content-encoding' });
    }
  });
  it('answers a gzip body that is not gzip with 400 bad_request naming the header', async () => {
    const res = await send('POST', '/api/users', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, user('not-gzip'));
    expect(res.status).toBe(400);
    expect(errorOf(res)).toMatchObject({ code: 'bad_request', field: 'headers.content-encoding' });
  });
  it('reads a gzip body that is gzip', async () => {
    const res = await send('POST', '/api/users', { 'content-type': 'application/json', 'content-encoding': 'gzip' }, gzipSync(user('gzipped')));
    expect(res.status).toBe(201);
  });
});

describe('a body the schema refuses is answered in words that name the field', () => {
  it('says what a field must be, never zod’s "Too small: expected number to be >=0"', async () => {
    const cases: [string, string, unknown, string, string][] = [
      ['POST', '/api/runs', { engine: 'offline', items: -1 }, 'body.items', 'Items must be 0 or more'],
      ['POST', '/api/runs', { engine: 'offline', budget_cost: -1 }, 'body.budget_cost', 'Budget cost must be more than 0'],
      ['POST', '/api/runs', { engine: 'offline', concurrency: 2.5 }, 'body.concurrency', 'Concurrency must be a whole number'],
      ['POST', '/api/runs', { engine: 'diesel' }, 'body.engine', 'Engine must be one of offline, openai'],
      ['POST', '/api/users', { role: 'reviewer', password: 'body-pass-123' }, 'body.username', 'Username is required'],
      ['PATCH', '/api/settings', { lease_seconds: -5 }, 'body.lease_seconds', 'Lease seconds must be'],
    ];
    for (const [method, path, body, field, words] of cases) {
      const res = await admin.request(method, path, body);
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      const error = errorOf(res);
      expect(error.field).toBe(field);
      expect(error.message.startsWith(`${field}: ${words}`), error.message).toBe(true);
      expect(error.message).not.toMatch(/Too small|Too big|Invalid (input|option)|expected \w+ to be|>=|<=/);
    }
  });
});
