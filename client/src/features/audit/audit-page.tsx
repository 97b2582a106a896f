import { useQuery } from '@tanstack/react-query';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES, AuditActionSchema, AuditTargetTypeSchema, type AuditEntry } from '@shared/api/audit';
import { usersApi } from '@shared/api/users';
import { call } from '../../api/http';
import { queryKeys } from '../../api/query-keys';
import { Field } from '../../ui/field';
import { FilterSelect, optionsOf } from '../../ui/filter-select';
import { LoadError } from '../../ui/error-messages';
import { formatTime } from '../../ui/format';
import { parseId } from '../../ui/parse-id';
import { useUrlFilters } from '../../ui/use-url-filters';
import { auditExportUrl, useAuditLog } from './audit-api';
import { readAuditFilters, toAuditFilter, writeAuditFilters } from './audit-filters';

/** "Who" for a person: anyone the admin can see, and the id from a link otherwise. */
function ActorFilter({ value, onChange }: { value: number | null; onChange: (id: number | null) => void }) {
  const users = useQuery({ queryKey: queryKeys.users.list(), queryFn: () => call(usersApi.list) });
  const people = new Map((users.data?.users ?? []).map((user) => [user.id, user.username]));
  if (value !== null && !people.has(value)) people.set(value, `user #${value}`);
  return (
    <Field label="Who" inline>
      {(control) => (
        <select {...control} name="actor" value={value ?? ''} onChange={(event) => onChange(parseId(event.target.value))}>
          <option value="">Anyone</option>
          {[...people].map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function details(entry: AuditEntry): string {
  const text = JSON.stringify(entry.details);
  return text === '{}' ? '' : text;
}

function EntryRow({ entry }: { entry: AuditEntry }) {
  return (
    <tr data-action={entry.action}>
      <td>
        <time dateTime={entry.at}>{formatTime(entry.at)}</time>
      </td>
      <td>{entry.actor_username ?? <span className="muted">system</span>}</td>
      <td>
        <code>{entry.action}</code>
      </td>
      <td>{entry.target_type === null ? '' : `${entry.target_type} ${entry.target_id ?? ''}`}</td>
      <td className="small">
        <code>{details(entry)}</code>
      </td>
    </tr>
  );
}

/** Admins: who did what and when, filtered in the URL, and downloadable as JSON lines. */
export function AuditPage() {
  const { filters, update } = useUrlFilters(readAuditFilters, writeAuditFilters);
  const filter = toAuditFilter(filters);
  const log = useAuditLog(filter);
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];

  return (
    <section className="page">
      <title>Audit log · Chart-HQA</title>
      <header className="page-header">
        <h1>Audit log</h1>
        <a className="button" href={auditExportUrl(filter)} download="audit-log.jsonl">
          Export JSON lines
        </a>
      </header>

      <div className="toolbar" role="search">
        <FilterSelect
          label="Action"
          name="action"
          value={filters.action}
          schema={AuditActionSchema}
          allLabel="Any action"
          options={optionsOf(AUDIT_ACTIONS)}
          onChange={(action) => update({ action })}
        />
        <ActorFilter value={filters.actor} onChange={(actor) => update({ actor })} />
        <FilterSelect
          label="Target"
          name="target_type"
          value={filters.targetType}
          schema={AuditTargetTypeSchema}
          allLabel="Any target"
          options={optionsOf(AUDIT_TARGET_TYPES)}
          onChange={(targetType) => update({ targetType })}
        />
        <Field label="Target id" inline>
          {(control) => <input {...control} name="target_id" size={8} value={filters.targetId} onChange={(event) => update({ targetId: event.target.value }, true)} />}
        </Field>
        <Field label="From" inline>
          {(control) => <input {...control} type="date" name="from" value={filters.from} onChange={(event) => update({ from: event.target.value })} />}
        </Field>
        <Field label="To" inline>
          {(control) => <input {...control} type="date" name="to" value={filters.to} onChange={(event) => update({ to: event.target.value })} />}
        </Field>
      </div>

      {log.isPending ? (
        <p className="muted">Loading the audit log…</p>
      ) : log.isError ? (
        <LoadError what="the audit log" error={log.error} />
      ) : entries.length === 0 ? (
        <p className="muted">No entries match these filters.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-grid" data-testid="audit-table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <EntryRow key={entry.id} entry={entry} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {log.hasNextPage && (
        <button type="button" onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
          {log.isFetchingNextPage ? 'Loading…' : 'Older entries'}
        </button>
      )}
    </section>
  );
}
