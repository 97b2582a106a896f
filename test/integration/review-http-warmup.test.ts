import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import Database from 'better-sqlite3';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../server/auth/session-cookie';
import { HTTP_WARM_UP_ROUNDS, warmReviewOverHttp } from '../../server/review/review-http-warmup';
import { generateItems } from '../support/review-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';

const dir = mkdtempSync(join(tmpdir(), 'hqa-warmup-'));
const dbPath = join(dir, 'hqa.sqlite');
const ITEMS = 3;

/** What a warm-up must leave as it found it, read through a connection of its own. */
function storedState(): unknown {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db
      .prepare(
        `SELECT (SELECT COUNT(*) FROM users) AS users, (SELECT COUNT(*) FROM sessions) AS sessions, (SELECT COUNT(*) FROM leases) AS leases,
          (SELECT COUNT(*) FROM reviews) AS reviews, (SELECT COALESCE(MAX(id), 0) FROM audit_log) AS last_audit,
          (SELECT group_concat(status) FROM (SELECT status FROM hqa_items ORDER BY id)) AS statuses`,
      )
      .get();
  } finally {
    db.close();
  }
}

let before: unknown;
beforeAll(async () => {
  // Items made by one server, then the file started again with the warm-up on, as `npm start` does.
  const maker = await startTestServer({ config: { dbPath } });
  await generateItems(maker, ITEMS);
  await maker.close();
  before = storedState();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the review warm-up over HTTP at start', () => {
  it('claims and gives back items before serving, stores none of it and logs no request of it', async () => {
    const logged: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged.push(chunk.toString('utf8'));
        done();
      },
    });
    const server = await startTestServer({ logger: pino({ level: 'info' }, destination), config: { dbPath, warmUp: true } });
    try {
      const report = logged.map((line) => JSON.parse(line) as { msg: string; claims?: number; requests?: number }).find((line) => line.msg === 'warmed up the review path');
      // Every round found an item to claim, and gave it back.
      expect(report).toMatchObject({ claims: HTTP_WARM_UP_ROUNDS, requests: 2 * HTTP_WARM_UP_ROUNDS });
      expect(logged.filter((line) => line.includes('/api/review/'))).toEqual([]);
      expect(storedState()).toEqual(before);
      expect(server.server.ctx.db.inTransaction).toBe(false);
    } finally {
      await server.close();
    }
  });
});

describe('warmReviewOverHttp', () => {
  let server: TestServer;
  let http: Server;
  let url: string;
  let listener: RequestListener = (_req, res) => res.end();
  beforeAll(async () => {
    server = await startTestServer({ config: { dbPath } });
    http = createServer((req, res) => listener(req, res));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => http.close(resolve));
    await server.close();
  });
  const serve = (next: RequestListener) => (listener = next);
  const starting: RequestListener = (_req, res) => res.writeHead(503).end('starting');

  it('answers everyone else with the starting page while it runs, a forged warm-up header included', async () => {
    const outside: number[] = [];
    const app: RequestListener = (req, res) => {
      // While the warm-up's first request is being served, two others arrive.
      const ask = async (headers: Record<string, string>) => (await fetch(`${url}/api/review/next`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' })).status;
      if (outside.length > 0) return server.server.app(req, res);
      outside.push(0);
      void Promise.all([ask({}), ask({ 'x-hqa-warm-up': 'guessed' })]).then((statuses) => {
        outside.splice(0, 1, ...statuses);
        server.server.app(req, res);
      });
    };
    const warmed = await warmReviewOverHttp({ db: server.server.ctx.db, cookieName: SESSION_COOKIE, url, app, others: starting, serve, rounds: 2 });
    expect(outside).toEqual([503, 503]);
    expect(warmed).toMatchObject({ claims: 2, requests: 4 });
    expect(storedState()).toEqual(before);
  });

  it('fails naming the request and what it got, and rolls back what it began', async () => {
    const broken: RequestListener = (_req, res) => res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"boom"}');
    await expect(warmReviewOverHttp({ db: server.server.ctx.db, cookieName: SESSION_COOKIE, url, app: broken, others: starting, serve, rounds: 2 })).rejects.toThrow(
      'warm-up POST /api/review/next: 500 {"error":"boom"}',
    );
    expect(server.server.ctx.db.inTransaction).toBe(false);
    expect(storedState()).toEqual(before);
  });
});
