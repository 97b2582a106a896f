import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reflectionApi, ReflectionBatchSchema } from '../../shared/api/reflection';
import { reviewApi } from '../../shared/api/review';
import { RunConfigSchema, runsApi } from '../../shared/api/runs';
import { putSettings } from '../../server/settings/settings-queries';
import { runCli } from '../support/cli';
import { TestClient } from '../support/http-client';
import { rejectReview } from '../support/review-fixtures';
import { signedIn } from '../support/signed-in-users';
import { startTestServer, type TestServer } from '../support/test-server';

/** `hqa reflect`: the reflection job kind run by the CLI in its own process, over the server's database. */
let server: TestServer;
let curator: TestClient;

beforeAll(async () => {
  server = await startTestServer();
  await server.createUser('cora', 'curator', 'curator-pass-1');
  await server.createUser('rev', 'reviewer', 'reviewer-pass-1');
  curator = await signedIn(server, 'cora', 'curator-pass-1');
  putSettings(server.server.ctx.db, { auto_reflect: false, retire_min_decisions: 1000, reflection_min_decisions: 1 });
  const { executor } = server.server;
  const run = executor.createRun(RunConfigSchema.parse({ engine: 'offline', stage: 'items', items: 12 }), null);
  await executor.start(run.id);
  // A reviewer rejects three items, with feedback the reviser can act on.
  const reviewer = await signedIn(server, 'rev', 'reviewer-pass-1');
  for (let n = 0; n < 3; n++) {
    const { task } = await reviewer.call(reviewApi.next, { body: {} });
    if (!task) throw new Error(`the offline run made fewer than three items to review: ${JSON.stringify((await curator.call(runsApi.get, { params: { id: run.id } })).run)}`);
    await reviewer.call(reviewApi.submit, { params: { id: task.item.id }, body: rejectReview('The bars must stay below the axis maximum; halve the change.') });
  }
});
afterAll(async () => {
  await server?.close();
});

const reflect = (...args: string[]) => runCli(['reflect', ...args], { dbPath: server.dbPath });

describe('hqa reflect', () => {
  it("revises every proposal with new decisions as the Pool page's batch does, and the page lists the batch", async () => {
    const result = await reflect('--user', 'cora', '--json');
    expect(result.status, result.stderr).toBe(0);
    const { batch } = JSON.parse(result.stdout) as { batch: unknown };
    const done = ReflectionBatchSchema.parse(batch);
    expect(done).toMatchObject({ status: 'done', failed: 0 });
    expect(done.total).toBeGreaterThan(0);
    expect(done.done).toBe(done.total);
    expect(done.revised).toBeGreaterThan(0);
    // Started by the curator named, as the page's button records its user: listed on the page.
    expect((await curator.call(reflectionApi.batches)).batches[0]).toEqual(done);

    // Nothing new since: an empty batch, done at once.
    const again = await reflect('--user', 'cora');
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^reflection batch \d+ done: 0 of 0 proposals, 0 revised, 0 failed/);
  });

  it('refuses a user who may not start a batch, and a chart type that is none, naming the option', async () => {
    const reviewer = await reflect('--user', 'rev');
    expect({ status: reviewer.status, stderr: reviewer.stderr }).toEqual({ status: 1, stderr: 'error: --user: rev is a reviewer; a batch is started by a curator or an admin\n' });
    const nobody = await reflect('--user', 'nobody');
    expect({ status: nobody.status, stderr: nobody.stderr }).toEqual({ status: 1, stderr: 'error: --user: no user nobody\n' });
    const badType = await reflect('--user', 'cora', '--chart-type', 'radar');
    expect(badType.status).toBe(1);
    expect(badType.stderr).toMatch(/^error: --chart-type: /);
  });
});
