import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reviewApi } from '../../shared/api/review';
import { TestClient } from '../support/http-client';
import { generateItems } from '../support/review-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';
import { settingsApi } from '../../shared/api/settings';

let server: TestServer;
let admin: TestClient;
let ann: TestClient;

beforeAll(async () => {
  server = await startTestServer();
  await generateItems(server, 4);
  await server.createUser('root', 'admin', 'admin-pass-123');
  await server.createUser('ann', 'reviewer', 'ann-password');
  admin = new TestClient(server.url);
  await admin.login('root', 'admin-pass-123');
  ann = new TestClient(server.url);
  await ann.login('ann', 'ann-password');
});
afterAll(async () => {
  await server.close();
});

/** Claims an item and gives it back, returning how long its lease was, in seconds. */
async function leaseSeconds(): Promise<number> {
  const before = Date.now();
  const task = (await ann.call(reviewApi.next, { body: {} })).task;
  if (!task) throw new Error('no item to claim');
  expect((await ann.send(reviewApi.release, { params: { id: task.item.id }, body: {} })).status).toBe(200);
  return (Date.parse(task.lease_expires_at) - before) / 1000;
}

describe('settings read through the cache', () => {
  it('a setting changed through the API is in force for the very next claim', async () => {
    expect((await admin.send(settingsApi.update, { body: { lease_seconds: 60 } })).status).toBe(200);
    const short = await leaseSeconds();
    expect(short).toBeGreaterThan(50);
    expect(short).toBeLessThanOrEqual(61);

    expect((await admin.send(settingsApi.update, { body: { lease_seconds: 3600 } })).status).toBe(200);
    const long = await leaseSeconds();
    expect(long).toBeGreaterThan(3500);
    expect(long).toBeLessThanOrEqual(3601);
  });
});
