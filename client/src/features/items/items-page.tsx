import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { z } from 'zod';
import { ITEM_ORIGINS, ITEM_STATUSES, ItemOriginSchema, ItemStatusSchema } from '@shared/domain/generation';
import { roleAtLeast } from '@shared/domain/roles';
import { useCurrentUser } from '../../auth/session';
import { ShortcutHint } from '../../keyboard/shortcut-hint';
import { usePageKeys } from '../../keyboard/use-page-keys';
import { ActionError, LoadError } from '../../ui/error-messages';
import { ChartTypeFilter, FilterSelect, optionsOf } from '../../ui/filter-select';
import { Pager } from '../../ui/pager';
import { useUrlFilters } from '../../ui/use-url-filters';
import { ITEM_PAGE_SIZE, readItemFilters, toItemQuery, writeItemFilters } from './item-filters';
import { ItemListTable, type ItemSelection } from '../../views/item-list-table';
import { useItems, useRequeue } from '../../api/items-api';
import { ReviewerFilter } from './reviewer-filter';
import { NO_VALIDITY_FILTERS, ValidityFilters, hasValidityFilter } from './validity-filters';

const SHORTCUTS = [
  { keys: ['j', '↓'], action: 'next' },
  { keys: ['k', '↑'], action: 'previous' },
  { keys: ['Enter'], action: 'open' },
  { keys: ['←', '→'], action: 'page' },
];
const CURATOR_SHORTCUTS = [...SHORTCUTS, { keys: ['x'], action: 'select for re-queue' }];

const VerifierFilterSchema = z.enum(['true', 'false']);
const VERIFIER_OPTIONS = [
  { value: 'false', label: 'differs (mismatch)' },
  { value: 'true', label: 'matches' },
] as const;

/** Checked items and the bulk re-queue, with a confirmation step: re-queueing retracts reviews. */
function BulkRequeue({ checked, onDone }: { checked: ReadonlySet<number>; onDone: () => void }) {
  const requeue = useRequeue();
  const [confirming, setConfirming] = useState(false);
  const [result, setResult] = useState<string | null>(null);
  const count = checked.size;
  if (count === 0 && !result && !requeue.isError) return null;
  return (
    <div className="bulk-bar" role="region" aria-label="Bulk actions" data-testid="bulk-bar">
      {count > 0 && (
        <>
          <span>
            <strong>{count}</strong> selected
          </span>
          {confirming ? (
            <>
              <span>Send them back to the review queue? Their reviews are kept but retracted.</span>
              <button
                type="button"
                className="primary"
                disabled={requeue.isPending}
                onClick={() =>
                  requeue.mutate([...checked], {
                    onSuccess: ({ requeued }) => {
                      setResult(`${requeued} ${requeued === 1 ? 'item' : 'items'} re-queued.`);
                      setConfirming(false);
                      onDone();
                    },
                  })
                }
              >
                Confirm re-queue
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </>
          ) : (
            <>
              <button
                type="button"
                onClick={() => {
                  setResult(null);
                  setConfirming(true);
                }}
              >
                Re-queue…
              </button>
              <button type="button" className="link-button" onClick={onDone}>
                Clear selection
              </button>
            </>
          )}
        </>
      )}
      {result && count === 0 && (
        <span className="ok" role="status">
          {result}
        </span>
      )}
      {requeue.isError && <ActionError error={requeue.error} />}
    </div>
  );
}

/** A removable note that the list is narrowed to one run, proposal or chart. */
function ScopeChip({ label, onClear }: { label: string; onClear: () => void }) {
  return (
    <span className="scope-chip">
      {label}{' '}
      <button type="button" className="link-button" onClick={onClear} aria-label={`Stop filtering by ${label}`}>
        ×
      </button>
    </span>
  );
}

export function ItemsPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const user = useCurrentUser();
  const isCurator = roleAtLeast(user.role, 'curator');
  const [checked, setChecked] = useState<ReadonlySet<number>>(new Set());
  const { filters, update } = useUrlFilters(readItemFilters, writeItemFilters);
  const list = useItems(toItemQuery(filters));
  const total = list.data?.total ?? 0;
  const goToPage = usePageKeys({ page: filters.page, total, pageSize: ITEM_PAGE_SIZE, onPage: (page) => update({ page }) });

  const filtered = Boolean(
    filters.status || filters.origin || filters.chartType || filters.run || filters.proposal || filters.chart || filters.verifier || filters.reviewer || hasValidityFilter(filters),
  );
  const selection: ItemSelection | undefined = isCurator
    ? {
        checked,
        onChange: (ids, on) =>
          setChecked((current) => {
            const next = new Set(current);
            for (const id of ids) {
              if (on) next.add(id);
              else next.delete(id);
            }
            return next;
          }),
      }
    : undefined;

  return (
    <section className="page">
      <title>Items · Chart-HQA</title>
      <header className="page-header">
        <h1>Items</h1>
        <ShortcutHint shortcuts={isCurator ? CURATOR_SHORTCUTS : SHORTCUTS} />
      </header>

      <div className="toolbar" role="search">
        <FilterSelect
          label="Status"
          name="status"
          value={filters.status}
          schema={ItemStatusSchema}
          allLabel="Any status"
          options={optionsOf(ITEM_STATUSES, (status) => status.replace('_', ' '))}
          onChange={(status) => update({ status })}
        />
        <FilterSelect
          label="Origin"
          name="origin"
          value={filters.origin}
          schema={ItemOriginSchema}
          allLabel="Any origin"
          options={optionsOf(ITEM_ORIGINS)}
          onChange={(origin) => update({ origin })}
        />
        <ChartTypeFilter value={filters.chartType} onChange={(chartType) => update({ chartType })} />
        <FilterSelect
          label="Verifier"
          name="verifier"
          value={filters.verifier}
          schema={VerifierFilterSchema}
          allLabel="Any verdict"
          options={VERIFIER_OPTIONS}
          onChange={(verifier) => update({ verifier })}
        />
        <ValidityFilters filters={filters} update={update} />
        <ReviewerFilter value={filters.reviewer} onChange={(reviewer) => update({ reviewer })} />
        {filters.run !== null && <ScopeChip label={`run #${filters.run}`} onClear={() => update({ run: null })} />}
        {filters.proposal !== null && <ScopeChip label={`proposal #${filters.proposal}`} onClear={() => update({ proposal: null })} />}
        {filters.chart !== null && <ScopeChip label={`chart #${filters.chart}`} onClear={() => update({ chart: null })} />}
        {filtered && (
          <button
            type="button"
            className="link-button"
            onClick={() => update({ status: '', origin: '', chartType: '', run: null, proposal: null, chart: null, verifier: '', reviewer: null, ...NO_VALIDITY_FILTERS })}
          >
            Clear filters
          </button>
        )}
        {list.isFetching && !list.isPending && <span className="muted small">Updating…</span>}
      </div>

      {isCurator && <BulkRequeue checked={checked} onDone={() => setChecked(new Set())} />}

      {list.isPending && <p className="muted">Loading items…</p>}
      {list.isError && <LoadError what="the items" error={list.error} />}
      {list.data && total === 0 && (
        <p className="empty">
          {filtered ? 'No items match these filters.' : 'No items yet. Start a run on the Runs page, or write one on a chart’s page.'}
        </p>
      )}
      {list.data && list.data.items.length > 0 && (
        <>
          <ItemListTable
            key={location.search}
            items={list.data.items}
            selection={selection}
            onOpen={(item) => void navigate(`/items/${item.id}`, { state: { listSearch: location.search } })}
          />
          <Pager page={filters.page} pageSize={ITEM_PAGE_SIZE} total={total} onPage={goToPage} />
        </>
      )}
    </section>
  );
}
