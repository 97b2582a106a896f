import { useNavigate, useSearchParams } from 'react-router';
import { roleAtLeast } from '@shared/domain/roles';
import { useCurrentUser } from '../../auth/session';
import { ShortcutHint } from '../../keyboard/shortcut-hint';
import { LoadError } from '../../ui/error-messages';
import { Pager } from '../../ui/pager';
import { parseId } from '../../ui/parse-id';
import { RunListTable } from './run-list-table';
import { RUN_PAGE_SIZE, useRuns } from '../../api/runs-api';
import { StartRunForm } from './start-run-form';

const SHORTCUTS = [
  { keys: ['j', '↓'], action: 'next' },
  { keys: ['k', '↑'], action: 'previous' },
  { keys: ['Enter'], action: 'open' },
];

export function RunsPage() {
  const user = useCurrentUser();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const page = parseId(searchParams.get('page')) ?? 1;
  const runs = useRuns(page);
  const canStart = roleAtLeast(user.role, 'curator');

  return (
    <section className="page">
      <title>Runs · Chart-HQA</title>
      <header className="page-header">
        <h1>Runs</h1>
        <ShortcutHint shortcuts={SHORTCUTS} />
      </header>

      {canStart ? <StartRunForm /> : <p className="muted">Curators start generation runs; you can watch them here.</p>}

      <section aria-labelledby="runs-heading">
        <h2 id="runs-heading">All runs</h2>
        {runs.isPending && <p className="muted">Loading runs…</p>}
        {runs.isError && <LoadError what="the runs" error={runs.error} />}
        {runs.data && runs.data.total === 0 && <p className="empty">No runs yet.</p>}
        {runs.data && runs.data.runs.length > 0 && (
          <>
            <RunListTable key={page} runs={runs.data.runs} onOpen={(run) => void navigate(`/runs/${run.id}`)} />
            {runs.data.total > RUN_PAGE_SIZE && (
              <Pager
                page={page}
                pageSize={RUN_PAGE_SIZE}
                total={runs.data.total}
                onPage={(next) => setSearchParams(next > 1 ? { page: String(next) } : {})}
              />
            )}
          </>
        )}
      </section>
    </section>
  );
}
