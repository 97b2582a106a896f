import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chartsApi } from '../../shared/api/charts';
import { fillPath } from '../../shared/api/endpoint';
import { MAX_DRAWN_CELLS } from '../../shared/chart-spec/drawing-limit';
import { ErrorBodySchema } from '../../shared/errors';
import { tableFromCells, type DataTable } from '../../shared/table/model';
import { renderChartSvg } from '../../server/charts/render-chart';
import { buildChart } from '../support/factories';
import { SignedInUsers, type SignedInUser } from '../support/signed-in-users';
import { startTestServer, type TestServer } from '../support/test-server';

/**
 * Issue 35 point 8b: a table past the drawing limit is refused, with a reply naming the chart and
 * its size, instead of holding a render thread (a 1000 × 200 table held one for 14.4 s and every
 * chart image queued behind it); a table of a real chart's size still draws.
 */
let server: TestServer;
let reviewer: SignedInUser;
const db = () => server.server.ctx.db;

/** A table of `rows` rows and `series` numeric series. */
function tableOf(rows: number, series: number): DataTable {
  const header = ['Year', ...Array.from({ length: series }, (_, s) => `Series ${s + 1}`)];
  const body = Array.from({ length: rows }, (_, r) => [`Row ${r + 1}`, ...Array.from({ length: series }, (_, s) => String((r * 7 + s * 13) % 100))]);
  return tableFromCells(header, body);
}

beforeAll(async () => {
  server = await startTestServer({ demo: false });
  reviewer = await new SignedInUsers(server).create('reviewer');
});
afterAll(async () => {
  await server.close();
});

describe('drawing a chart from its table', () => {
  it('refuses a 1000 × 200 table at once, naming the chart and its size', async () => {
    const id = buildChart(db(), { split: 'huge', imgname: 'wide_table.png', table: tableOf(1000, 200) });
    const started = performance.now();
    const res = await reviewer.client.get(fillPath(chartsApi.image.path, { id }));
    const elapsedMs = performance.now() - started;
    expect(res.status).toBe(422);
    const { error } = ErrorBodySchema.parse(res.body);
    expect(error.code).toBe('too_large_to_draw');
    expect(error.message).toBe(`chart ${id} (huge/wide_table.png) is not drawn: its table has 1000 rows × 200 series = 200000 cells, over the ${MAX_DRAWN_CELLS} cells a chart can show`);
    // Drawing it took 14 s; the refusal is decided before any drawing.
    expect(elapsedMs).toBeLessThan(2_000);
  });

  it('refuses one cell past the limit, and the renderer itself refuses whatever calls it', async () => {
    const justOver = tableOf(MAX_DRAWN_CELLS / 4 + 1, 4);
    const id = buildChart(db(), { table: justOver });
    const res = await reviewer.client.get(fillPath(chartsApi.image.path, { id }));
    expect(ErrorBodySchema.parse(res.body).error.code).toBe('too_large_to_draw');
    await expect(renderChartSvg(tableOf(1000, 200), 'line', { title: 'Wide' })).rejects.toThrow(/the chart "Wide" is not drawn: its table has 1000 rows × 200 series/);
  });

  it('still draws a table of a real chart size, and one at the limit', async () => {
    for (const table of [tableOf(12, 3), tableOf(MAX_DRAWN_CELLS / 4, 4)]) {
      const id = buildChart(db(), { table });
      const res = await reviewer.client.get(fillPath(chartsApi.image.path, { id }));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('x-chart-image')).toBe('rendered');
      expect(Buffer.from(res.body as ArrayBuffer).subarray(1, 4).toString('latin1')).toBe('PNG');
    }
  });
});
