import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../shared/errors';
import { TestClient } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';
import { authApi } from '../../shared/api/auth';

/** Wrong passwords one user name may take per window, and one address. */
const PER_NAME = 3;
const PER_ADDRESS = 8;

const ALICE = { username: 'alice', password: 'alice-pass-123' };
const BOB = { username: 'bob', password: 'bob-pass-1234' };

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ demo: false, config: { loginAccountRateLimit: PER_NAME, loginRateLimit: PER_ADDRESS } });
  await server.createUser(ALICE.username, 'reviewer', ALICE.password);
  await server.createUser(BOB.username, 'reviewer', BOB.password);
});
afterAll(async () => {
  await server.close();
});

/** All of these come from one address: 127.0.0.1. */
async function login(username: string, password: string) {
  const res = await new TestClient(server.url).send(authApi.login, { body: { username, password } });
  return { status: res.status, code: ErrorBodySchema.safeParse(res.body).data?.error.code, message: ErrorBodySchema.safeParse(res.body).data?.error.message };
}

describe('login limits per user name and per address', () => {
  it('hammering one name from one address locks that name (even its right password), not another user behind the same address', async () => {
    for (let i = 0; i < PER_NAME; i++) expect((await login(ALICE.username, `wrong-${i}-password`)).status).toBe(401);
    const locked = await login(ALICE.username, ALICE.password);
    expect(locked).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(locked.message).toMatch(/for this user name/);

    // More attempts at the locked name than the address allows: they are refused unchecked and
    // so spend nothing of the address's budget.
    for (let i = 0; i < PER_ADDRESS + 2; i++) expect((await login(ALICE.username, `again-${i}-password`)).status).toBe(429);
    expect((await login(BOB.username, BOB.password)).status).toBe(200);
  });
  it('locks a name that belongs to no user the same way, so a lock tells nothing about who exists', async () => {
    for (let i = 0; i < PER_NAME; i++) expect((await login('nobody-here', `wrong-${i}-password`)).status).toBe(401);
    expect((await login('nobody-here', 'wrong-once-more')).status).toBe(429);
  });
  it('still stops one address trying many names: past its own limit every name is refused', async () => {
    // alice's 3 and nobody-here's 3 wrong passwords already count: 2 more reach the address limit.
    for (const name of ['carol', 'dave']) expect((await login(name, 'wrong-password')).status).toBe(401);
    const refused = await login(BOB.username, BOB.password);
    expect(refused).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(refused.message).toMatch(/from this address/);
  });
});

describe('a name in other letter cases', () => {
  it('shares one budget: failures as alice, ALICE and Alice lock every spelling, the right password too', async () => {
    const own = await startTestServer({ demo: false, config: { loginAccountRateLimit: PER_NAME } });
    try {
      await own.createUser(ALICE.username, 'reviewer', ALICE.password);
      const attempt = async (username: string, password: string) => (await new TestClient(own.url).send(authApi.login, { body: { username, password } })).status;
      // The database finds the same user under each spelling.
      expect(await attempt('ALICE', ALICE.password)).toBe(200);
      for (const [i, spelling] of ['alice', 'ALICE', 'Alice'].entries()) expect(await attempt(spelling, `wrong-${i}-password`)).toBe(401);
      for (const spelling of ['alice', 'ALICE', 'aLiCe', ' Alice ']) expect(await attempt(spelling, ALICE.password)).toBe(429);
    } finally {
      await own.close();
    }
  });
});

describe('a lock lifts when its window ends', () => {
  it('lets the locked name log in again after the window', async () => {
    const windowMs = 2_000;
    const short = await startTestServer({ demo: false, config: { loginAccountRateLimit: 2, loginRateWindowMs: windowMs } });
    try {
      await short.createUser(ALICE.username, 'reviewer', ALICE.password);
      const attempt = async (password: string) => (await new TestClient(short.url).send(authApi.login, { body: { username: ALICE.username, password } })).status;
      const started = Date.now();
      expect(await attempt('wrong-password-1')).toBe(401);
      expect(await attempt('wrong-password-2')).toBe(401);
      const lockedStatus = await attempt(ALICE.password);
      // The lock can only be seen while the window lasts; on a slow machine it may be over already.
      if (Date.now() - started < windowMs) expect(lockedStatus).toBe(429);
      // A fixed wait: the lock lifts when its window ends, which nothing announces. Trying the name
      // until it lets in would test something else (that refused attempts do not prolong the lock).
      await new Promise((resolve) => setTimeout(resolve, windowMs - (Date.now() - started) + 200));
      expect(await attempt(ALICE.password)).toBe(200);
    } finally {
      await short.close();
    }
  });
});
