import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DeletePublishedTableResponseSchema,
  PublishedTableListResponseSchema,
  PublishedTableResponseSchema,
  publishedFiguresApi,
  type PublishedTable,
} from '../../shared/api/evaluations';
import { ErrorBodySchema } from '../../shared/errors';
import { readPaperTableFile, type PaperTableFile } from '../support/chart-hqa-paper';
import { TestClient } from '../support/http-client';
import { SignedInUsers, type SignedInUser } from '../support/signed-in-users';
import { startTestServer, type TestServer } from '../support/test-server';

let server: TestServer;
let curator: SignedInUser;
let reviewer: SignedInUser;
const path = publishedFiguresApi.list.path;
const SOURCE = 'Chart-HQA paper (arXiv 2503.04095)';

/** The paper's own inconsistencies in Table 3 (../shared/data/chart-hqa-paper/README.md); Table 4 has none. */
const TABLE3_ERRATA = [
  { model: 'ChartVLM-L', printed: '63.70', recomputed: '67.65' },
  { model: 'GPT-4V', printed: '28.01', recomputed: '28.04' },
];

const body = (name: PaperTableFile) => ({ source: `${SOURCE}, ${name}`, file_name: name, text: readPaperTableFile(name).text });

async function upload(client: TestClient, name: PaperTableFile): Promise<PublishedTable> {
  const res = await client.post(path, body(name));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return PublishedTableResponseSchema.parse(res.body).table;
}

async function list(client: TestClient): Promise<PublishedTable[]> {
  const res = await client.get(path);
  expect(res.status).toBe(200);
  return PublishedTableListResponseSchema.parse(res.body).tables;
}

const remove = (client: TestClient, id: number) => client.request('DELETE', `${path}/${id}`);

/** The rows whose printed figure does not follow from their own accuracies, as the API flags them. */
const flagged = (table: PublishedTable) =>
  table.rows.filter((row) => !row.check.follows).map((row) => ({ model: row.model, printed: row.check.printed, recomputed: row.check.recomputed }));

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  const users = new SignedInUsers(server);
  curator = await users.create('curator');
  reviewer = await users.create('reviewer');
});
afterAll(() => server.close());

describe('published figures API', () => {
  it("stores the paper's real Table 3 and Table 4 for the team, flagging exactly the two rows of Table 3 the paper got wrong", async () => {
    const table3 = await upload(curator.client, 'table3.tsv');
    const table4 = await upload(curator.client, 'table4.tsv');
    expect(table3).toMatchObject({ kind: 'table3', file_name: 'table3.tsv', source: `${SOURCE}, table3.tsv`, created_by: curator.username });
    expect(table4).toMatchObject({ kind: 'table4', file_name: 'table4.tsv', created_by: curator.username });
    expect(table3.rows).toHaveLength(18);
    expect(table4.rows).toHaveLength(18);
    expect(flagged(table3)).toEqual(TABLE3_ERRATA);
    expect(flagged(table4)).toEqual([]);
    // The row rounded half-up on its decimal value (43.125 → 43.13) follows; binary toFixed would have flagged it.
    expect(table3.rows.find((row) => row.model === 'InternVL-v2.5-8B')?.check).toEqual({ printed: '43.13', recomputed: '43.13', follows: true });
    // Figures stay the printed text; Qwen2.5-VL is two rows, told apart by params.
    if (table3.kind !== 'table3') throw new Error(`table3.tsv was read as ${table3.kind}`);
    expect(table3.rows.filter((row) => row.model === 'Qwen2.5-VL').map((row) => [row.params, row.chart_hqa_acc])).toEqual([
      ['7B', '57.20'],
      ['72B', '66.41'],
    ]);

    // A reviewer reads what the curator uploaded, oldest first, checked the same way.
    const tables = await list(reviewer.client);
    expect(tables.map((t) => t.id)).toEqual([table3.id, table4.id]);
    expect(tables[0]).toEqual(table3);
    expect(tables[1]).toEqual(table4);
  });

  it('refuses an upload from a reviewer (403) and from no one signed in (401), storing nothing', async () => {
    const before = await list(curator.client);
    expect((await reviewer.client.post(path, body('table3.tsv'))).status).toBe(403);
    expect((await new TestClient(server.url).post(path, body('table3.tsv'))).status).toBe(401);
    expect(await list(curator.client)).toEqual(before);
  });

  it('answers 400 naming the file, line and column of a bad TSV, and the field of an empty source', async () => {
    const before = await list(curator.client);
    const lines = readPaperTableFile('table3.tsv').text.split('\n');
    // Line 5 of the file (TinyChart): its Chart-HQA accuracy is no longer a decimal.
    const bad = lines.map((line, i) => (i === 4 ? line.replace('30.79', '30,79') : line)).join('\n');
    const res = await curator.client.post(path, { source: SOURCE, file_name: 'table3-bad.tsv', text: bad });
    expect(res.status).toBe(400);
    expect(ErrorBodySchema.parse(res.body).error).toMatchObject({ code: 'bad_request', field: 'body.text', message: 'table3-bad.tsv, line 5, column chart_hqa_acc: "30,79" is not a decimal number such as 83.60' });

    const header = await curator.client.post(path, { source: SOURCE, file_name: 'misspelt.tsv', text: lines.join('\n').replace('decline_rate', 'decline') });
    expect(header.status).toBe(400);
    expect(ErrorBodySchema.parse(header.body).error.message).toMatch(/^misspelt\.tsv, line 1, column decline: is not a column of Table 3/);

    const noSource = await curator.client.post(path, { ...body('table3.tsv'), source: '  ' });
    expect(noSource.status).toBe(400);
    expect(ErrorBodySchema.parse(noSource.body).error.field).toBe('body.source');
    expect(await list(curator.client)).toEqual(before);
  });

  it('deletes a table for a curator only, and answers 404 for an id that is not there', async () => {
    const before = (await list(curator.client)).map((t) => t.id);
    const table = await upload(curator.client, 'table4.tsv');
    expect((await remove(reviewer.client, table.id)).status).toBe(403);
    expect((await list(reviewer.client)).map((t) => t.id)).toEqual([...before, table.id]);

    const deleted = await remove(curator.client, table.id);
    expect(deleted.status).toBe(200);
    expect(DeletePublishedTableResponseSchema.parse(deleted.body)).toEqual({ id: table.id });
    expect((await list(reviewer.client)).map((t) => t.id)).toEqual(before);

    const again = await remove(curator.client, table.id);
    expect(again.status).toBe(404);
    expect(ErrorBodySchema.parse(again.body).error).toMatchObject({ code: 'not_found', message: `published table ${table.id} not found` });
  });
});
