import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ItemDetailResponseSchema, itemsApi } from '../../shared/api/items';
import { poolApi } from '../../shared/api/pool';
import { ErrorBodySchema } from '../../shared/errors';
import { importSplit } from '../../server/import/import-split';
import { TestClient } from '../support/http-client';
import { CHARTQA_SAMPLE } from '../support/paths';
import { startTestServer, type TestServer } from '../support/test-server';
import { chartsApi } from '../../shared/api/charts';
import { reflectionApi } from '../../shared/api/reflection';
import { reviewApi } from '../../shared/api/review';
import { runsApi } from '../../shared/api/runs';
import { usersApi } from '../../shared/api/users';

/** Text and ids at the edges, sent as a client would: JSON escapes carry the lone surrogates. */

let server: TestServer;
let curator: TestClient;
let admin: TestClient;

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  await server.createUser('cora', 'curator', 'curator-pass-1');
  await server.createUser('root', 'admin', 'admin-pass-123');
  expect(importSplit(server.server.ctx.db, CHARTQA_SAMPLE).errors).toEqual([]);
  curator = new TestClient(server.url);
  await curator.login('cora', 'curator-pass-1');
  admin = new TestClient(server.url);
  await admin.login('root', 'admin-pass-123');
});
afterAll(async () => {
  await server?.close();
});

function expectError(res: { status: number; body: unknown }, status: number, code: string, field: string, message?: RegExp) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  const { error } = ErrorBodySchema.parse(res.body);
  expect(error).toMatchObject({ code, field });
  if (message) expect(error.message).toMatch(message);
}

const LONE = '\ud800';
const RLO = '\u202e';
const ISOLATE = '\u2067';
// eslint-disable-next-line no-control-regex -- NUL is one of the characters looked for
const hidden = /[\u0000\u202a-\u202e\u2066-\u2069]/;

const item = (over: Record<string, unknown> = {}) => ({
  qa_id: 1,
  assumption: 'Suppose every value doubled.',
  question: 'Suppose every value doubled. What would the largest value be?',
  rationale: 'Doubling keeps the order.',
  program: 'max(series())',
  answer: '10',
  answer_type: 'integer',
  affects_answer: true,
  ...over,
});

describe('free text: lone surrogates refused, NUL and bidi controls stripped', () => {
  it('refuses a lone surrogate in item text, naming the field', async () => {
    // JSON.stringify writes a lone surrogate as the escape \ud800, as any client would send it.
    expect(JSON.stringify(LONE)).toBe('"\\ud800"');
    for (const field of ['assumption', 'question', 'rationale', 'answer']) {
      expectError(await curator.send(itemsApi.create, { body: item({ [field]: `Value ${LONE} here` }) }), 400, 'bad_request', `body.${field}`, /lone surrogate/);
    }
  });

  it('stores item text with NUL and bidi controls stripped', async () => {
    const res = await curator.send(itemsApi.create, { body: item({ question: `Suppose every value doubled. What would the ${RLO}largest${'\u202c'} value be?\u0000`, answer: `${ISOLATE}10\u2069` }) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { item: stored } = ItemDetailResponseSchema.parse(res.body);
    expect(stored.question).toBe('Suppose every value doubled. What would the largest value be?');
    expect(stored.answer).toBe('10');
    // Nothing but hidden characters is empty text.
    expectError(await curator.send(itemsApi.create, { body: item({ rationale: `${RLO}\u0000` }) }), 400, 'bad_request', 'body.rationale');
  });

  it('refuses hidden characters and lone surrogates in the name of a row an edit adds', async () => {
    const addRow = (row: string) => item({ edit: [{ op: 'add_row', row, values: 5 }] });
    expectError(await curator.send(itemsApi.create, { body: addRow(`Spain${RLO}`) }), 400, 'bad_request', 'body.edit.0.row', /bidirectional/);
    expectError(await curator.send(itemsApi.create, { body: addRow('Spain\u0000') }), 400, 'bad_request', 'body.edit.0.row', /NUL/);
    expectError(await curator.send(itemsApi.create, { body: addRow(`Spain${LONE}`) }), 400, 'bad_request', 'body.edit.0.row', /lone surrogate/);
  });

  it('proposal text: stripped of bidi controls, refused with a lone surrogate', async () => {
    const text = `Suppose the ${RLO}smallest slice${'\u202c'} grew to a third of the whole pie.`;
    const res = await curator.send(poolApi.create, { body: { chart_type: 'pie', text } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = (res.body as { proposal: { id: number } }).proposal.id;
    const { proposal } = await curator.call(poolApi.get, { params: { id } });
    expect(proposal.text).toBe('Suppose the smallest slice grew to a third of the whole pie.');
    expectError(await curator.send(poolApi.create, { body: { chart_type: 'pie', text: `Suppose one slice ${LONE} doubled in size.` } }), 400, 'bad_request', 'body.text', /lone surrogate/);
  });

  it('review feedback and notes refuse a lone surrogate before anything else is checked', async () => {
    const pass = { pass: true, note: '' };
    const body = { decision: 'accept', criteria: { rationality: pass, correctness: pass, layout: pass }, time_spent_ms: 10 };
    expectError(await curator.send(reviewApi.submit, { params: { id: 1 }, body: { ...body, feedback: `ok ${LONE}` } }), 400, 'bad_request', 'body.feedback', /lone surrogate/);
    const note = { pass: true, note: `fine ${LONE}` };
    expectError(await curator.send(reviewApi.submit, { params: { id: 1 }, body: { ...body, criteria: { ...body.criteria, layout: note } } }), 400, 'bad_request', 'body.criteria.layout.note');
    expectError(await curator.send(reviewApi.adjudicate, { params: { id: 1 }, body: { decision: 'accept', note: `ok ${LONE}` } }), 400, 'bad_request', 'body.note', /lone surrogate/);
  });

  it('user names refuse NUL, bidi controls and lone surrogates', async () => {
    for (const username of [`ad${RLO}nimda`, 'ad\u0000min', `ad${ISOLATE}min`, `ad${LONE}min`]) {
      expectError(await admin.send(usersApi.create, { body: { username, role: 'reviewer' } }), 400, 'bad_request', 'body.username');
    }
    expect(hidden.test(JSON.stringify((await admin.send(usersApi.list)).body))).toBe(false);
  });
});

describe('ids are decimal digits', () => {
  it('answers 404 for an id in any other form, on every kind of route', async () => {
    expect((await curator.send(chartsApi.get, { params: { id: 16 } })).status).toBe(200);
    for (const id of ['0x10', '0X10', '0b10000', '0o20', '1.6e1', '16.0', '016', '%2016', '16%20', '+16', '-16', '0', 'abc', '99999999999999999999']) {
      for (const path of [`/api/charts/${id}`, `/api/items/${id}`, `/api/pool/${id}`, `/api/runs/${id}`, `/api/analytics/lineage/${id}`]) {
        expectError(await curator.get(path), 404, 'not_found', 'params.id');
      }
    }
    expectError(await curator.send(chartsApi.update, { params: { id: '0x10' }, body: { chart_type: 'pie' } }), 404, 'not_found', 'params.id');
    expectError(await curator.send(reviewApi.adjudicate, { params: { id: '0x1' }, body: { decision: 'accept' } }), 404, 'not_found', 'params.id');
    expectError(await curator.send(runsApi.pause, { params: { id: '0x1' } }), 404, 'not_found', 'params.id');
  });

  it('refuses a hex id in a list filter with a 400 naming it', async () => {
    expectError(await curator.send(itemsApi.list, { query: { chart_id: '0x10' } }), 400, 'bad_request', 'query.chart_id', /decimal id/);
    expectError(await curator.send(itemsApi.list, { query: { run_id: '1e3' } }), 400, 'bad_request', 'query.run_id');
    expect((await curator.send(itemsApi.list, { query: { chart_id: 16 } })).status).toBe(200);
  });
});

describe('POST /api/reflection/batch', () => {
  it('validates chart_type against the chart types', async () => {
    expectError(await curator.send(reflectionApi.startBatch, { body: { chart_type: 'radar' } }), 400, 'bad_request', 'body.chart_type');
    expectError(await curator.send(reflectionApi.startBatch, { body: { chart_type: 7 } }), 400, 'bad_request', 'body.chart_type');
  });
});
