import { useState } from 'react';
import type { QueueFilters } from '@shared/api/review';
import { ITEM_STATUSES } from '@shared/domain/generation';
import { ChartTypeFilter } from '../../ui/filter-select';
import { Field } from '../../ui/field';
import { parseId } from '../../ui/parse-id';
import { useRuns } from '../../api/runs-api';
import { useQueue } from './review-api';

/**
 * Live queue figures: what is left for this reviewer and, for curators and admins, how many items
 * are in each status (reviewers get none: blind review, StatusCountsSchema).
 */
export function QueueCounts() {
  const queue = useQueue();
  if (!queue.data) return <span className="muted small">Queue…</span>;
  const { available, assigned, counts } = queue.data;
  const statuses = ITEM_STATUSES.filter((status) => counts[status] !== undefined);
  return (
    <p className="queue-counts small" data-testid="queue-counts" aria-live="polite">
      <strong data-testid="queue-available">{available}</strong> for you
      {assigned > 0 && (
        <>
          {' · '}
          <strong data-testid="queue-assigned">{assigned}</strong> assigned to you (served first)
        </>
      )}
      {statuses.map((status) => (
        <span key={status} className="queue-count" data-status={status}>
          {' · '}
          {status.replace('_', ' ')} {counts[status]}
        </span>
      ))}
    </p>
  );
}

/** A proposal id typed into a box, taken when the reviewer presses Enter or leaves the box. */
function ProposalFilter({ value, onChange }: { value: number | undefined; onChange: (id: number | undefined) => void }) {
  const [text, setText] = useState(value === undefined ? '' : String(value));
  const [last, setLast] = useState(value);
  if (value !== last) {
    setLast(value);
    setText(value === undefined ? '' : String(value));
  }
  const commit = () => {
    const id = parseId(text.trim()) ?? undefined;
    if (id !== value) onChange(id);
    if (id === undefined) setText('');
  };
  return (
    <Field label="Proposal #" inline>
      {(control) => (
        <input
          {...control}
          className="id-input"
          inputMode="numeric"
          placeholder="any"
          value={text}
          onChange={(event) => setText(event.target.value)}
          onBlur={commit}
          onKeyDown={(event) => {
            if (event.key === 'Enter') event.currentTarget.blur();
          }}
        />
      )}
    </Field>
  );
}

/** Which items the queue gives this reviewer: run, chart type, proposal, verifier mismatches first. */
export function QueueFilterBar({ filters, onChange }: { filters: QueueFilters; onChange: (filters: QueueFilters) => void }) {
  const runs = useRuns(1);
  return (
    <div className="toolbar review-filters" role="group" aria-label="Queue filters">
      <Field label="Run" inline>
        {(control) => (
          <select
            {...control}
            value={filters.run_id ?? ''}
            onChange={(event) => onChange({ ...filters, run_id: parseId(event.target.value) ?? undefined })}
          >
            <option value="">Any run</option>
            {filters.run_id !== undefined && !runs.data?.runs.some((run) => run.id === filters.run_id) && (
              <option value={filters.run_id}>#{filters.run_id}</option>
            )}
            {runs.data?.runs.map((run) => (
              <option key={run.id} value={run.id}>
                #{run.id} {run.engine} · {run.items_created} items
              </option>
            ))}
          </select>
        )}
      </Field>
      <ChartTypeFilter value={filters.chart_type ?? ''} onChange={(type) => onChange({ ...filters, chart_type: type || undefined })} />
      <ProposalFilter value={filters.proposal_id} onChange={(proposal_id) => onChange({ ...filters, proposal_id })} />
      <label className="checkbox inline-checkbox">
        <input
          type="checkbox"
          checked={filters.mismatch_first}
          onChange={(event) => onChange({ ...filters, mismatch_first: event.target.checked })}
        />
        Verifier mismatches first
      </label>
    </div>
  );
}
