import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyEdit, EditOpSchema, parseEdit, type EditOp } from './edit';
import { lintEdit } from './lint';
import { DataTableSchema } from './model';
import { buildSalesTable } from '../../test/support/table-fixtures';
import { CHART_TYPES } from '../domain/chart-types';

/** Edits are LLM output too: whatever validates must apply or fail with a typed error, never throw. */

const label = fc.oneof(fc.constantFrom('2017', '2018', ' 2019 ', '2020', 'Online', 'offline', 'nope', '2021'), fc.integer({ min: 2015, max: 2022 }));
const number = fc.double({ noNaN: true, noDefaultInfinity: true });

const op: fc.Arbitrary<EditOp> = fc.oneof(
  fc.record({ op: fc.constant('set' as const), row: label, series: fc.option(label, { nil: undefined }), value: number }),
  fc.record({ op: fc.constant('scale' as const), row: fc.option(label, { nil: undefined }), series: fc.option(label, { nil: undefined }), factor: number }),
  fc.record({ op: fc.constant('add' as const), row: fc.option(label, { nil: undefined }), series: fc.option(label, { nil: undefined }), delta: number }),
  fc.record({ op: fc.constant('swap' as const), rows: fc.tuple(label, label), series: fc.option(label, { nil: undefined }) }),
  fc.record({ op: fc.constant('remove_row' as const), row: label }),
  fc.record({ op: fc.constant('remove_series' as const), series: label }),
  fc.record({
    op: fc.constant('add_row' as const),
    row: label,
    values: fc.oneof(number, fc.dictionary(fc.constantFrom('Online', 'Offline', 'nope'), fc.option(number, { nil: null }))),
  }),
).map((candidate) => EditOpSchema.parse(JSON.parse(JSON.stringify(candidate))));

describe('applyEdit on generated edits', () => {
  it('returns a valid table or a typed error, never throws, never mutates, and lint never throws', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 6 }), fc.constantFrom(...CHART_TYPES), (edit, chartType) => {
        const table = buildSalesTable();
        const snapshot = structuredClone(table);
        const result = applyEdit(table, edit);
        expect(table).toEqual(snapshot);
        if (result.ok) {
          expect(DataTableSchema.safeParse(result.table).success).toBe(true);
          for (const row of result.table.rows) for (const value of row.values) if (value !== null) expect(Number.isFinite(value)).toBe(true);
          lintEdit(chartType, table, result.table, edit);
        } else {
          expect(result.error.message).toMatch(/^op \d+: /);
          lintEdit(chartType, table, null, edit, [result.error]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('parseEdit never throws on arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const parsed = parseEdit(value);
        expect(typeof parsed.ok).toBe('boolean');
      }),
      { numRuns: 300 },
    );
  });
});
