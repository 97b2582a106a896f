import { useState } from 'react';
import { Link } from 'react-router';
import { z } from 'zod';
import type { CoverageCell, CoverageResponse } from '@shared/api/analytics';
import { CHART_TYPE_LABELS, CHART_TYPES } from '@shared/domain/chart-types';
import { ANSWER_TYPES, AnswerTypeSchema, type AnswerType } from '@shared/table/answers';
import { errorMessage } from '../../api/http';
import { Field } from '../../ui/field';
import { FilterSelect, optionsOf } from '../../ui/filter-select';
import { useCoverage } from './stats-api';

/** How many of the thinnest cells to list; the API's default is 20. */
const THINNEST_LIMITS = ['10', '20', '50', '100'] as const;
const LimitSchema = z.enum(THINNEST_LIMITS);
const AFFECTS = ['changes', 'keeps'] as const;
const AffectsSchema = z.enum(AFFECTS);
type Affects = z.infer<typeof AffectsSchema>;
const AFFECTS_LABELS: Record<Affects, string> = { changes: 'changes the answer', keeps: 'leaves the answer' };

type Slice = { answerType: AnswerType | ''; affects: Affects | '' };

function inSlice(cell: CoverageCell, slice: Slice): boolean {
  if (slice.answerType && cell.answer_type !== slice.answerType) return false;
  if (slice.affects && cell.affects_answer !== (slice.affects === 'changes')) return false;
  return true;
}

const operationOf = (cell: Pick<CoverageCell, 'verb' | 'noun'>) => `${cell.verb} ${cell.noun}`;

/**
 * Accepted items per operation (rows) × chart type (columns) within the chosen answer type and
 * effect on the answer. Rows include the pool's operations with no accepted item yet, so the
 * gaps show as gaps.
 */
function HeatTable({ coverage, slice }: { coverage: CoverageResponse; slice: Slice }) {
  const counts = new Map<string, number>();
  const totals = new Map<string, number>();
  for (const cell of coverage.cells.filter((c) => inSlice(c, slice))) {
    const key = `${operationOf(cell)}|${cell.chart_type}`;
    counts.set(key, (counts.get(key) ?? 0) + cell.count);
    totals.set(operationOf(cell), (totals.get(operationOf(cell)) ?? 0) + cell.count);
  }
  const all = [...coverage.cells, ...coverage.thinnest];
  const types = CHART_TYPES.filter((type) => all.some((cell) => cell.chart_type === type));
  const operations = [...new Set(all.map(operationOf))].sort((a, b) => (totals.get(b) ?? 0) - (totals.get(a) ?? 0) || a.localeCompare(b));
  const max = Math.max(0, ...counts.values());
  if (operations.length === 0) return <p className="empty">No accepted item and no operation in the pool yet.</p>;
  return (
    <div className="table-scroll heat-scroll">
      <table className="data-grid heat-table" data-testid="coverage-heat">
        <thead>
          <tr>
            <th scope="col">Operation</th>
            {types.map((type) => (
              <th key={type} scope="col" className="num">
                {CHART_TYPE_LABELS[type]}
              </th>
            ))}
            <th scope="col" className="num">
              All
            </th>
          </tr>
        </thead>
        <tbody>
          {operations.map((operation) => (
            <tr key={operation}>
              <th scope="row">{operation}</th>
              {types.map((type) => {
                const count = counts.get(`${operation}|${type}`) ?? 0;
                // A tint proportional to the count; empty cells stay blank, to be seen as gaps.
                const alpha = max > 0 && count > 0 ? 0.12 + (0.78 * count) / max : 0;
                return (
                  <td
                    key={type}
                    className={`num heat-cell${alpha > 0.55 ? ' heat-strong' : ''}`}
                    style={alpha > 0 ? { background: `rgb(45 95 168 / ${alpha.toFixed(2)})` } : undefined}
                    data-count={count}
                  >
                    {count > 0 ? count : <span className="muted">·</span>}
                  </td>
                );
              })}
              <td className="num">{totals.get(operation) ?? 0}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ThinnestCells({ cells }: { cells: CoverageResponse['thinnest'] }) {
  if (cells.length === 0) return <p className="empty">The active pool names no operation to fill.</p>;
  return (
    <table className="data-grid" data-testid="coverage-thinnest">
      <thead>
        <tr>
          <th scope="col">Operation</th>
          <th scope="col">Chart type</th>
          <th scope="col">Answer type</th>
          <th scope="col">Assumption</th>
          <th scope="col" className="num">
            Accepted
          </th>
          <th scope="col">Active proposals naming it</th>
        </tr>
      </thead>
      <tbody>
        {cells.map((cell) => (
          <tr key={`${operationOf(cell)}|${cell.chart_type}|${cell.answer_type}|${cell.affects_answer}`}>
            <th scope="row">{operationOf(cell)}</th>
            <td>{CHART_TYPE_LABELS[cell.chart_type]}</td>
            <td>{cell.answer_type}</td>
            <td>{AFFECTS_LABELS[cell.affects_answer ? 'changes' : 'keeps']}</td>
            <td className="num">{cell.count}</td>
            <td>
              {cell.proposal_ids.length === 0 ? (
                <span className="muted">none</span>
              ) : (
                cell.proposal_ids.map((id, index) => (
                  <span key={id}>
                    {index > 0 && ' '}
                    <Link to={`/pool/${id}`}>#{id}</Link>
                  </span>
                ))
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Where the accepted set is thin: the coverage map and the cells generation should be steered to. */
export function CoverageSection() {
  const [limit, setLimit] = useState<(typeof THINNEST_LIMITS)[number]>('20');
  const [slice, setSlice] = useState<Slice>({ answerType: '', affects: '' });
  const coverage = useCoverage(Number(limit));
  return (
    <section className="panel" aria-labelledby="coverage-heading" data-testid="coverage">
      <h2 id="coverage-heading">Coverage</h2>
      {coverage.isPending && <p className="muted">Loading the coverage map…</p>}
      {coverage.isError && (
        <p className="error" role="alert">
          Could not load the coverage map: {errorMessage(coverage.error)}
        </p>
      )}
      {coverage.data && (
        <>
          <p className="muted small">
            Accepted items per operation and chart type: {coverage.data.accepted_items} accepted
            {coverage.data.unparsed_items > 0 && `, ${coverage.data.unparsed_items} with no operation read (left out)`}.
          </p>
          <div className="toolbar">
            <FilterSelect
              label="Answer type"
              name="answer_type"
              value={slice.answerType}
              schema={AnswerTypeSchema}
              allLabel="Any answer type"
              options={optionsOf(ANSWER_TYPES)}
              onChange={(answerType) => setSlice({ ...slice, answerType })}
            />
            <FilterSelect
              label="Assumption"
              name="affects_answer"
              value={slice.affects}
              schema={AffectsSchema}
              allLabel="Either effect"
              options={optionsOf(AFFECTS, (value) => AFFECTS_LABELS[value])}
              onChange={(affects) => setSlice({ ...slice, affects })}
            />
          </div>
          <HeatTable coverage={coverage.data} slice={slice} />
          <h3>Thinnest cells</h3>
          <p className="muted small">
            Operation × chart type × answer type × effect combinations the active pool can produce, fewest accepted items first: where the
            next runs should aim.
          </p>
          <div className="toolbar">
            <Field label="Show" inline>
              {(control) => (
                <select
                  {...control}
                  name="limit"
                  value={limit}
                  onChange={(event) => {
                    const picked = LimitSchema.safeParse(event.target.value);
                    if (picked.success) setLimit(picked.data);
                  }}
                >
                  {THINNEST_LIMITS.map((value) => (
                    <option key={value} value={value}>
                      {value} cells
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
          <ThinnestCells cells={coverage.data.thinnest} />
        </>
      )}
    </section>
  );
}
