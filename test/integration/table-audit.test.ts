import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillPath } from '../../shared/api/endpoint';
import { SaveTableResponseSchema, tablesApi } from '../../shared/api/tables';
import { ErrorBodySchema } from '../../shared/errors';
import { ServerEventSchemas } from '../../shared/events';
import { importFolder } from '../../server/import/import-folder';
import { MULTICHARTQA_DATA } from '../support/multichartqa-sample';
import { SignedInUsers, type SignedInUser } from '../support/signed-in-users';
import { connectAs, nextEvent } from '../support/socket-client';
import { startTestServer, type TestServer } from '../support/test-server';

/** Charts published as images only: their tables are a curator's to type in, confirm and set back. */
const SPLIT = 'multichartqa';
const TABLE = { title: 'Daily cases', label_header: 'Year', series: ['Germany', 'France'], rows: [{ label: '2020', cells: ['12.5', '3'] }] };

let server: TestServer;
let curator: SignedInUser;
let reviewer: SignedInUser;
let chartId: number;

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  importFolder(server.server.ctx.db, MULTICHARTQA_DATA, { format: 'multichartqa', split: SPLIT });
  chartId = (server.server.ctx.db.prepare('SELECT id FROM charts WHERE split = ? ORDER BY id LIMIT 1').get(SPLIT) as { id: number }).id;
  const users = new SignedInUsers(server);
  curator = await users.create('curator');
  reviewer = await users.create('reviewer');
});
afterAll(async () => {
  await server.close();
});

const path = (endpoint: { path: string }) => fillPath(endpoint.path, { id: chartId });
const auditOf = () =>
  (server.server.ctx.db.prepare("SELECT action, actor_id, details FROM audit_log WHERE target_type = 'chart' AND target_id = ? ORDER BY id").all(String(chartId)) as { action: string; actor_id: number | null; details: string }[]).map(
    (row) => ({ ...row, details: JSON.parse(row.details) as Record<string, unknown> }),
  );

describe('a chart table’s saves, confirmations and un-confirmations', () => {
  it('are audited with who did it, and a confirmed table can be set back to unconfirmed, pushed live to other clients', async () => {
    const saved = await curator.client.request('PUT', path(tablesApi.save), TABLE);
    expect(saved.status).toBe(200);
    expect(auditOf()).toEqual([
      { action: 'chart.table_saved', actor_id: curator.id, details: expect.objectContaining({ changed: true, source: 'curator', was: { source: null, confirmed: false }, rows: 1, series: 2 }) as unknown },
    ]);

    // Reviewers may not take a confirmation back.
    expect((await reviewer.client.post(path(tablesApi.unconfirm))).status).toBe(403);

    const socket = await connectAs(server.url, reviewer.client);
    try {
      const pushed = nextEvent(socket, 'chart.updated', (payload) => ServerEventSchemas['chart.updated'].parse(payload).chart.id === chartId);
      const unconfirmed = await curator.client.post(path(tablesApi.unconfirm));
      expect(unconfirmed.status).toBe(200);
      expect(SaveTableResponseSchema.parse(unconfirmed.body).table).toMatchObject({ table_confirmed: false, table_source: 'curator', data_table: { series: ['Germany', 'France'] } });
      await pushed;
    } finally {
      socket.close();
    }

    // Setting back an unconfirmed table changes nothing and records nothing.
    expect((await curator.client.post(path(tablesApi.unconfirm))).status).toBe(200);
    const confirmed = await curator.client.post(path(tablesApi.confirm));
    expect(SaveTableResponseSchema.parse(confirmed.body).table.table_confirmed).toBe(true);
    expect((await curator.client.post(path(tablesApi.confirm))).status).toBe(200);

    expect(auditOf().map((row) => [row.action, row.actor_id, row.details.source])).toEqual([
      ['chart.table_saved', curator.id, 'curator'],
      ['chart.table_unconfirmed', curator.id, 'curator'],
      ['chart.table_confirmed', curator.id, 'curator'],
    ]);
  });

  it('refuses to set back a chart with no table, naming it, and audits nothing', async () => {
    const other = (server.server.ctx.db.prepare('SELECT id FROM charts WHERE split = ? AND data_table IS NULL ORDER BY id LIMIT 1').get(SPLIT) as { id: number }).id;
    const refused = await curator.client.post(fillPath(tablesApi.unconfirm.path, { id: other }));
    expect(refused.status).toBe(409);
    expect(ErrorBodySchema.parse(refused.body).error.message).toBe(`chart ${other} has no table to set back to unconfirmed`);
    expect(server.server.ctx.db.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE target_type = 'chart' AND target_id = ?").get(String(other))).toEqual({ n: 0 });
  });

  it('saves the units a curator sets, by series, audited as a change; blank is none, a save without units keeps the stored ones, a wrong count is refused by field', async () => {
    const other = (server.server.ctx.db.prepare('SELECT id FROM charts WHERE split = ? AND data_table IS NULL ORDER BY id LIMIT 1').get(SPLIT) as { id: number }).id;
    const save = (body: unknown) => curator.client.request('PUT', fillPath(tablesApi.save.path, { id: other }), body);
    const auditCount = () => (server.server.ctx.db.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'chart.table_saved' AND target_id = ?").get(String(other)) as { n: number }).n;

    const withUnits = await save({ ...TABLE, units: [' cases per million ', null] });
    expect(withUnits.status, JSON.stringify(withUnits.body)).toBe(200);
    expect(SaveTableResponseSchema.parse(withUnits.body).table.data_table).toMatchObject({ series: ['Germany', 'France'], units: ['cases per million', null] });
    expect(auditCount()).toBe(1);

    // Saved again without units (a pasted CSV): the stored units stay with their series, by name; nothing changed.
    const without = await save({ ...TABLE, series: ['France', 'Germany'], rows: [{ label: '2020', cells: ['3', '12.5'] }] });
    expect(SaveTableResponseSchema.parse(without.body).table.data_table?.units).toEqual([null, 'cases per million']);

    // A unit changed is a change to the table: audited like any save.
    const changed = await save({ ...TABLE, units: ['%', ''] });
    expect(SaveTableResponseSchema.parse(changed.body).table.data_table?.units).toEqual(['%', null]);
    const audits = server.server.ctx.db.prepare("SELECT details FROM audit_log WHERE action = 'chart.table_saved' AND target_id = ? ORDER BY id").pluck().all(String(other)) as string[];
    expect(audits.map((details) => (JSON.parse(details) as { changed: boolean }).changed)).toEqual([true, true, true]);

    // Every unit cleared: the table keeps no units at all.
    const cleared = await save({ ...TABLE, units: [null, ' '] });
    expect(SaveTableResponseSchema.parse(cleared.body).table.data_table).not.toHaveProperty('units');

    const refused = await save({ ...TABLE, units: ['%'] });
    expect(refused.status).toBe(400);
    expect(ErrorBodySchema.parse(refused.body).error.field).toBe('body.units');
    expect(auditCount()).toBe(4);
  });
});
