import { useState } from 'react';
import { AblationQuerySchema, type AblationGroup, type AblationRow } from '@shared/api/analytics';
import { errorMessage } from '../../api/http';
import { formatPercent } from '../../ui/format';
import { Field } from '../../ui/field';
import { useDebouncedValue } from '../../ui/use-debounced-value';
import { formatCost } from '../../views/run-progress';
import { useAblation } from './stats-api';

/** The paper's default for pricing reviewer time, and the API's. */
const DEFAULT_HOURLY_RATE = AblationQuerySchema.parse({}).reviewer_hourly_rate;
const RATE_DEBOUNCE_MS = 400;

const GROUP_LABELS: Record<AblationGroup, { name: string; note: string }> = {
  human: { name: 'Human', note: 'hand-written items' },
  machine: { name: 'Machine', note: 'generated, before any reflection' },
  hai: { name: 'HAI', note: 'generated from revised proposals, after reflection' },
};

type Part = { key: 'llm' | 'reflection' | 'reviewer'; label: string; cost: number };

/** What one accepted item cost, split into the model's generation, reflection and reviewer time. */
function unitParts(row: AblationRow): Part[] | null {
  if (row.accepted === 0) return null;
  return [
    { key: 'llm', label: 'LLM', cost: row.llm_cost / row.accepted },
    { key: 'reflection', label: 'reflection', cost: row.reflection_cost / row.accepted },
    { key: 'reviewer', label: 'reviewer', cost: row.reviewer_cost / row.accepted },
  ];
}

/** The unit cost's parts as a stacked bar, scaled to the dearest row. */
function CostBar({ parts, max }: { parts: Part[]; max: number }) {
  return (
    <span className="cost-bar" aria-hidden="true">
      {parts.map((part) => (
        <span key={part.key} className={`cost-${part.key}`} style={{ width: `${max > 0 ? (100 * part.cost) / max : 0}%` }} />
      ))}
    </span>
  );
}

function AblationTableRow({ label, note, row, maxUnit, sub = false }: { label: string; note: string; row: AblationRow; maxUnit: number; sub?: boolean }) {
  const parts = unitParts(row);
  return (
    <tr className={sub ? 'sub-row' : undefined}>
      <th scope="row">
        {label}
        <div className="muted small">{note}</div>
      </th>
      <td className="num">{row.items}</td>
      <td className="num">{row.decided}</td>
      <td className="num">{formatPercent(row.pass_rate)}</td>
      <td className="num">{formatPercent(row.rationality_pass_rate)}</td>
      <td className="num">{formatPercent(row.layout_pass_rate)}</td>
      <td className="num">{row.mean_complexity === null ? '—' : row.mean_complexity.toFixed(2)}</td>
      <td className="num">{row.operation_diversity}</td>
      <td className="num nowrap" data-testid="unit-cost">
        {row.unit_cost === null ? '—' : formatCost(row.unit_cost)}
      </td>
      <td className="cost-parts">
        {parts ? (
          <>
            <CostBar parts={parts} max={maxUnit} />
            <span className="small">
              {parts.map((part, index) => (
                <span key={part.key}>
                  {index > 0 && ' · '}
                  <span className="nowrap">
                    {part.label} {formatCost(part.cost)}
                  </span>
                </span>
              ))}
            </span>
          </>
        ) : (
          <span className="muted small">nothing accepted</span>
        )}
      </td>
      <td className="num">{row.reviewer_hours.toFixed(2)}</td>
    </tr>
  );
}

/** The paper's Figure 4 as a standing table: items by origin, how well they pass, how diverse, what they cost. */
export function AblationSection() {
  const [rateText, setRateText] = useState(String(DEFAULT_HOURLY_RATE));
  const parsed = AblationQuerySchema.shape.reviewer_hourly_rate.safeParse(rateText.trim() === '' ? undefined : rateText);
  const [lastValid, setLastValid] = useState(DEFAULT_HOURLY_RATE);
  if (parsed.success && parsed.data !== lastValid) setLastValid(parsed.data);
  const rate = useDebouncedValue(lastValid, RATE_DEBOUNCE_MS);
  const ablation = useAblation(rate);

  const rows = ablation.data ? [...ablation.data.groups, ...ablation.data.hai_by_round] : [];
  const maxUnit = Math.max(0, ...rows.map((row) => row.unit_cost ?? 0));

  return (
    <section className="panel" aria-labelledby="ablation-heading" data-testid="ablation">
      <h2 id="ablation-heading">Human vs machine vs HAI</h2>
      <p className="muted small">
        Items by how they were made. Pass rates are of decided items; unit cost is (LLM calls + reflection calls + reviewer time) per
        accepted item, reviewer time priced at the hourly rate; its parts: <span className="cost-key cost-llm">LLM</span>{' '}
        <span className="cost-key cost-reflection">reflection</span> <span className="cost-key cost-reviewer">reviewer</span>.
      </p>
      <div className="toolbar">
        <Field label="Reviewer hourly rate (USD)" inline error={parsed.success ? undefined : 'a number from 0 to 10000'}>
          {(control) => (
            <input
              {...control}
              type="number"
              name="reviewer_hourly_rate"
              min={0}
              max={10000}
              step="any"
              className="rate-input"
              value={rateText}
              onChange={(event) => setRateText(event.target.value)}
            />
          )}
        </Field>
        {ablation.isFetching && !ablation.isPending && <span className="muted small">Updating…</span>}
      </div>
      {ablation.isPending && <p className="muted">Loading the comparison…</p>}
      {ablation.isError && (
        <p className="error" role="alert">
          Could not load the comparison: {errorMessage(ablation.error)}
        </p>
      )}
      {ablation.data && (
        <div className="table-scroll">
          <table className="data-grid ablation-table" data-testid="ablation-table">
            <thead>
              <tr>
                <th scope="col">Items</th>
                <th scope="col" className="num">
                  Made
                </th>
                <th scope="col" className="num">
                  Decided
                </th>
                <th scope="col" className="num">
                  Pass rate
                </th>
                <th scope="col" className="num">
                  Rationality
                </th>
                <th scope="col" className="num">
                  Layout
                </th>
                <th scope="col" className="num" title="Mean complexity rating (1–5)">
                  Complexity
                </th>
                <th scope="col" className="num" title="Distinct verb–object operations">
                  Operations
                </th>
                <th scope="col" className="num">
                  Unit cost
                </th>
                <th scope="col">Its parts</th>
                <th scope="col" className="num">
                  Review hours
                </th>
              </tr>
            </thead>
            <tbody>
              {ablation.data.groups.map((row) => (
                <AblationTableRow key={row.group} label={GROUP_LABELS[row.group].name} note={GROUP_LABELS[row.group].note} row={row} maxUnit={maxUnit} />
              ))}
              {ablation.data.hai_by_round.map((row) => (
                <AblationTableRow key={`round-${row.round}`} label={`HAI round ${row.round}`} note="items from proposals of this round" row={row} maxUnit={maxUnit} sub />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
