import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditApi, type AuditEntry, AuditEntrySchema, type AuditListQuery } from '../../shared/api/audit';
import { NextResponseSchema, reviewApi, SubmitReviewResponseSchema } from '../../shared/api/review';
import { RunConfigSchema, RunResponseSchema, runsApi } from '../../shared/api/runs';
import { CreateUserResponseSchema, ResetPasswordResponseSchema, usersApi } from '../../shared/api/users';
import { splitsApi } from '../../shared/api/splits';
import { exportItemId } from '../../shared/export/chart-hqa';
import { importFolder } from '../../server/import/import-folder';
import { putSettings, getSetting } from '../../server/settings/settings-queries';
import { TestClient } from '../support/http-client';
import { CHARTQA_SAMPLE } from '../support/paths';
import { acceptReview, generateItems } from '../support/review-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';
import { authApi } from '../../shared/api/auth';
import { evalApi } from '../../shared/api/evaluations';
import { exportApi } from '../../shared/api/export';
import { itemDiscussionApi } from '../../shared/api/item-discussion';
import { settingsApi } from '../../shared/api/settings';

/** Issue 16 point 9: who did what and when, each entry written with its change. */

let server: TestServer;
let admin: TestClient;
let reviewer: TestClient;
let adminId: number;
let reviewerId: number;

const db = () => server.server.ctx.db;
const userId = (name: string) => (db().prepare('SELECT id FROM users WHERE username = ?').get(name) as { id: number }).id;

async function audit(query: AuditListQuery = {}): Promise<AuditEntry[]> {
  return (await admin.call(auditApi.list, { query })).entries;
}

beforeAll(async () => {
  server = await startTestServer();
  await server.createUser('root', 'admin', 'admin-pass-123');
  await server.createUser('rev', 'reviewer', 'reviewer-pass-1');
  adminId = userId('root');
  reviewerId = userId('rev');
  admin = new TestClient(server.url);
  await admin.login('root', 'admin-pass-123');
  reviewer = new TestClient(server.url);
  await reviewer.login('rev', 'reviewer-pass-1');
});
afterAll(async () => {
  await server.close();
});

describe('the audit log', () => {
  it('is the admin\'s only', async () => {
    expect((await reviewer.send(auditApi.list)).status).toBe(403);
    expect((await reviewer.send(auditApi.export)).status).toBe(403);
    expect((await new TestClient(server.url).send(auditApi.list)).status).toBe(401);
  });

  it('records logins, the failed ones with the name tried and no password', async () => {
    const ok = await audit({ action: 'login.succeeded', actor_id: reviewerId });
    expect(ok).toHaveLength(1);
    expect(ok[0]).toMatchObject({ actor_username: 'rev', target_type: 'user', target_id: String(reviewerId) });
    expect((await new TestClient(server.url).send(authApi.login, { body: { username: 'rev', password: 'wrong-password-1' } })).status).toBe(401);
    expect((await new TestClient(server.url).send(authApi.login, { body: { username: 'nobody', password: 'wrong-password-2' } })).status).toBe(401);
    const failed = await audit({ action: 'login.failed' });
    expect(failed.map((e) => [e.actor_id, e.target_id, e.details.username])).toEqual([
      [null, null, 'nobody'],
      [null, String(reviewerId), 'rev'],
    ]);
    expect(JSON.stringify(failed)).not.toContain('wrong-password');
  });

  it('records user create, role change, disable and enable, by the admin who did them', async () => {
    const created = await admin.send(usersApi.create, { body: { username: 'cora', role: 'reviewer' } });
    expect(created.status).toBe(201);
    const id = CreateUserResponseSchema.parse(created.body).user.id;
    expect((await admin.send(usersApi.update, { params: { id }, body: { role: 'curator' } })).status).toBe(200);
    expect((await admin.send(usersApi.disable, { params: { id } })).status).toBe(200);
    expect((await admin.send(usersApi.enable, { params: { id } })).status).toBe(200);
    const entries = await audit({ target_type: 'user', target_id: String(id) });
    expect(entries.map((e) => e.action)).toEqual(['user.enabled', 'user.disabled', 'user.role_changed', 'user.created']);
    expect(entries.every((e) => e.actor_id === adminId && e.actor_username === 'root')).toBe(true);
    expect(entries[2]?.details).toEqual({ from: 'reviewer', to: 'curator' });
  });

  it('leaves no entry for a change refused inside its transaction', async () => {
    // The last admin cannot lose the role: refused after the transaction began, so it rolls back whole.
    // (First start made an admin too: disabled, root is the last one.)
    expect((await admin.send(usersApi.disable, { params: { id: userId('admin') } })).status).toBe(200);
    expect((await admin.send(usersApi.update, { params: { id: adminId }, body: { role: 'reviewer' } })).status).toBe(409);
    expect(await audit({ action: 'user.role_changed', target_id: String(adminId) })).toEqual([]);
    // A settings patch whose second value is invalid: the first is stored, then the whole transaction rolls back.
    const before = (await audit({ action: 'settings.updated' })).length;
    expect(() => putSettings(db(), { lease_seconds: 900, temperature: 9 }, adminId)).toThrow(/settings\.temperature/);
    expect(getSetting(db(), 'lease_seconds')).not.toBe(900);
    expect(await audit({ action: 'settings.updated' })).toHaveLength(before);
  });

  it('records settings changes with what changed', async () => {
    expect((await admin.send(settingsApi.update, { body: { lease_seconds: 600 } })).status).toBe(200);
    const [entry] = await audit({ action: 'settings.updated', limit: 1 });
    expect(entry).toMatchObject({ actor_id: adminId, target_type: 'settings', details: { changed: { lease_seconds: 600 } } });
  });

  it('records an import with its counts', async () => {
    const { report } = importFolder(db(), CHARTQA_SAMPLE, { split: 'audit-sample', actorId: adminId });
    const [entry] = await audit({ action: 'split.imported', target_id: 'audit-sample' });
    expect(entry).toMatchObject({ actor_id: adminId, target_type: 'split', details: { format: 'chartqa', charts_imported: report.charts_imported, qas_imported: report.qas_imported } });
    expect(report.charts_imported).toBeGreaterThan(0);
  });

  it('records runs started, paused, resumed and cancelled', async () => {
    const started = await admin.send(runsApi.create, { body: { engine: 'offline', stage: 'items', items: 2 } });
    const run = RunResponseSchema.parse(started.body).run;
    await server.server.executor.start(run.id);
    const held = server.server.executor.createRun(RunConfigSchema.parse({ engine: 'offline', stage: 'items', items: 2 }), null);
    expect((await admin.send(runsApi.pause, { params: { id: held.id } })).status).toBe(200);
    expect((await admin.send(runsApi.resume, { params: { id: held.id } })).status).toBe(200);
    await server.server.executor.start(held.id);
    const other = server.server.executor.createRun(RunConfigSchema.parse({ engine: 'offline', stage: 'items', items: 2 }), null);
    expect((await admin.send(runsApi.cancel, { params: { id: other.id } })).status).toBe(200);
    expect((await audit({ target_type: 'run', target_id: String(run.id) })).map((e) => [e.action, e.actor_id])).toEqual([['run.started', adminId]]);
    expect((await audit({ target_type: 'run', target_id: String(held.id) })).map((e) => [e.action, e.actor_id])).toEqual([
      ['run.resumed', adminId],
      ['run.paused', adminId],
      ['run.started', null],
    ]);
    expect((await audit({ target_type: 'run', target_id: String(other.id) })).map((e) => e.action)).toEqual(['run.cancelled', 'run.started']);
  });

  it('records a review, an adjudication and an edit of the item', async () => {
    await generateItems(server, 1);
    const task = (await reviewer.call(reviewApi.next, { body: {} })).task;
    if (!task) throw new Error('no item to review');
    const itemId = task.item.id;
    expect((await reviewer.send(reviewApi.submit, { params: { id: itemId }, body: acceptReview() })).status).toBe(201);
    expect((await admin.send(reviewApi.adjudicate, { params: { id: itemId }, body: { decision: 'reject', note: 'audit test' } })).status).toBe(200);
    const entries = await audit({ target_type: 'item', target_id: String(itemId) });
    expect(entries.map((e) => [e.action, e.actor_id])).toEqual([
      ['item.adjudicated', adminId],
      ['review.submitted', reviewerId],
    ]);
    expect(entries[1]?.details).toMatchObject({ decision: 'accept' });
    expect(entries[0]?.details).toMatchObject({ decision: 'reject' });

    // A curator's edit, with its reason; an edit that changes nothing is refused inside its transaction and leaves none.
    const edited = await admin.send(itemDiscussionApi.edit, { params: { id: itemId }, body: { answer: 'an edited answer', reason: 'the audit test edits it' } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await admin.send(itemDiscussionApi.edit, { params: { id: itemId }, body: { answer: 'an edited answer', reason: 'again' } })).status).toBe(400);
    const edits = await audit({ action: 'item.edited', target_id: String(itemId) });
    expect(edits.map((e) => [e.actor_id, e.details.fields, e.details.reason])).toEqual([[adminId, ['answer'], 'the audit test edits it']]);
  });

  it('records comments, and evaluation runs started, imported and cancelled', async () => {
    await generateItems(server, 1);
    const task = (await reviewer.call(reviewApi.next, { body: {} })).task;
    if (!task) throw new Error('no item to review');
    expect((await reviewer.send(reviewApi.submit, { params: { id: task.item.id }, body: acceptReview() })).status).toBe(201);
    expect((await admin.send(itemDiscussionApi.postComment, { params: { id: task.item.id }, body: { body: 'checked by @rev' } })).status).toBe(201);
    const [comment] = await audit({ action: 'comment.posted', target_id: String(task.item.id) });
    expect(comment).toMatchObject({ actor_id: adminId, target_type: 'item', details: { mentioned: ['rev'] } });

    const started = await admin.send(evalApi.create, { body: { engine: 'factual-baseline' } });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const runId = String((started.body as { run: { id: number } }).run.id);
    const [entry] = await audit({ target_type: 'eval_run', target_id: runId });
    expect(entry).toMatchObject({ action: 'eval.started', actor_id: adminId, details: { engine: 'factual-baseline', mode: 'hqa' } });
    // The baseline is done at once; cancelling a finished run is refused and leaves no entry.
    await expect.poll(async () => ((await admin.send(evalApi.get, { params: { id: runId } })).body as { run: { status: string } }).run.status).toBe('done');
    expect((await admin.send(evalApi.cancel, { params: { id: runId }, body: {} })).status).toBe(409);
    expect((await audit({ target_type: 'eval_run', target_id: runId })).map((e) => e.action)).toEqual(['eval.started']);

    const imported = await admin.send(evalApi.import, { body: { model: 'elsewhere', mode: 'hqa', predictions: [{ id: exportItemId(task.item.id), prediction: '1' }] } });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    const [importEntry] = await audit({ action: 'eval.imported', limit: 1 });
    expect(importEntry).toMatchObject({ actor_id: adminId, details: { model: 'elsewhere', predictions: 1 } });
  });

  it('records an export download with its item count', async () => {
    const res = await admin.send(exportApi.download, { body: { format: 'jsonl' } });
    expect(res.status).toBe(200);
    const lines = Buffer.from(res.body as ArrayBuffer).toString('utf8').split('\n').filter(Boolean);
    const [entry] = await audit({ action: 'export.downloaded', limit: 1 });
    expect(entry).toMatchObject({ actor_id: adminId, target_id: 'jsonl', details: { format: 'jsonl', items: lines.length } });
  });

  it('filters by time and pages newest first by id', async () => {
    expect(await audit({ to: '2000-01-01' })).toEqual([]);
    expect(await audit({ from: '2999-01-01T00:00:00Z' })).toEqual([]);
    const all = await audit({ limit: 200 });
    expect(all.length).toBeGreaterThan(6);
    expect(await audit({ from: '2000-01-01', to: '2999-01-01' })).toEqual(all.slice(0, 50));
    const first = await admin.call(auditApi.list, { query: { limit: 3 } });
    expect(first.entries).toEqual(all.slice(0, 3));
    const second = await admin.call(auditApi.list, { query: { limit: 3, before_id: first.next_before_id ?? undefined } });
    expect(second.entries).toEqual(all.slice(3, 6));
    const last = await admin.call(auditApi.list, { query: { limit: 3, before_id: all.at(-1)?.id } });
    expect(last).toEqual({ entries: [], next_before_id: null });
    expect((await admin.send(auditApi.list, { query: { action: 'nothing.done' } })).status).toBe(400);
    expect((await admin.send(auditApi.list, { query: { from: 'yesterday' } })).status).toBe(400);
  });

  it('exports the filtered log as JSON lines', async () => {
    // Fetched as text: TestClient would parse a JSON-ish type as one JSON document.
    const res = await fetch(`${server.url}/api/audit/export?target_type=user`, { headers: { cookie: admin.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/x-ndjson');
    expect(res.headers.get('content-disposition')).toContain('audit-log.jsonl');
    const text = await res.text();
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.trimEnd().split('\n').map((line) => AuditEntrySchema.parse(JSON.parse(line)));
    expect(lines).toEqual(await audit({ target_type: 'user', limit: 200 }));
    expect(lines.length).toBeGreaterThan(3);
  });
  it('records a password reset and a revocation of sessions, by the admin, with the sessions ended and never the password', async () => {
    const created = await admin.post(usersApi.create.path, { username: 'rita', role: 'reviewer', password: 'rita-password-1' });
    const id = CreateUserResponseSchema.parse(created.body).user.id;
    await new TestClient(server.url).login('rita', 'rita-password-1');
    const reset = await admin.send(usersApi.resetPassword, { params: { id } });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    const { generated_password: password } = ResetPasswordResponseSchema.parse(reset.body);
    await new TestClient(server.url).login('rita', password);
    const revoked = await admin.send(usersApi.revokeSessions, { params: { id } });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    const entries = await audit({ target_type: 'user', target_id: String(id) });
    expect(entries.map((e) => [e.action, e.actor_id, e.details.revoked_sessions])).toEqual([
      ['user.sessions_revoked', adminId, 1],
      ['login.succeeded', id, undefined],
      ['user.password_reset', adminId, 1],
      ['login.succeeded', id, undefined],
      ['user.created', adminId, undefined],
    ]);
    expect(JSON.stringify(entries)).not.toContain(password);
    // A refused reset (no such user) rolls back and leaves no entry.
    expect((await admin.send(usersApi.resetPassword, { params: { id: 999_999 } })).status).toBe(404);
    expect(await audit({ action: 'user.password_reset', target_id: '999999' })).toEqual([]);
  });

  it('records a review taken back, by its reviewer, naming the review', async () => {
    await generateItems(server, 1);
    const task = NextResponseSchema.parse((await reviewer.post(reviewApi.next.path, {})).body).task;
    if (!task) throw new Error('no item to review');
    const submitted = await reviewer.send(reviewApi.submit, { params: { id: task.item.id }, body: acceptReview() });
    const { review_id: reviewId } = SubmitReviewResponseSchema.parse(submitted.body);
    expect((await reviewer.send(reviewApi.undo, { params: { id: reviewId } })).status).toBe(200);
    const entries = await audit({ target_type: 'item', target_id: String(task.item.id) });
    expect(entries.map((e) => [e.action, e.actor_id])).toEqual([
      ['review.undone', reviewerId],
      ['review.submitted', reviewerId],
    ]);
    expect(entries[0]?.details).toEqual({ review_id: reviewId, from: 'accepted' });
    // The undo leased the item to the reviewer again: give it back for the tests after.
    expect((await reviewer.send(reviewApi.release, { params: { id: task.item.id }, body: {} })).status).toBe(200);
  });

  it('records a split relabelled and archived, with the label before and after; a change to the same value records nothing', async () => {
    const update = (body: object) => admin.send(splitsApi.update, { params: { name: 'audit-sample' }, body });
    expect((await update({ label: 'Audit sample' })).status).toBe(200);
    expect((await update({ label: 'Audit sample, checked' })).status).toBe(200);
    expect((await update({ label: 'Audit sample, checked' })).status).toBe(200);
    expect((await update({ archived: true })).status).toBe(200);
    expect((await update({ label: '', archived: false })).status).toBe(200);
    const entries = await audit({ target_type: 'split', target_id: 'audit-sample' });
    expect(entries.map((e) => [e.action, e.actor_id, e.details])).toEqual([
      ['split.unarchived', adminId, {}],
      ['split.relabelled', adminId, { from: 'Audit sample, checked', to: null }],
      ['split.archived', adminId, {}],
      ['split.relabelled', adminId, { from: 'Audit sample', to: 'Audit sample, checked' }],
      ['split.relabelled', adminId, { from: null, to: 'Audit sample' }],
      ['split.imported', adminId, expect.anything()],
    ]);
  });
});
