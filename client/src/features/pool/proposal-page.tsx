import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { Proposal } from '@shared/api/pool';
import { roleAtLeast } from '@shared/domain/roles';
import { formatTime } from '../../ui/format';
import { useCurrentUser } from '../../auth/session';
import { ShortcutHint } from '../../keyboard/shortcut-hint';
import { useHotkeys } from '../../keyboard/use-hotkeys';
import { LoadError } from '../../ui/error-messages';
import { Pager } from '../../ui/pager';
import { BackLink, RecordNotFound, isNotFound } from '../../ui/record-page';
import { ItemListTable } from '../../views/item-list-table';
import { useItems } from '../../api/items-api';
import { parseId } from '../../ui/parse-id';
import { LineageTree } from './lineage-tree';
import { useProposal } from '../../api/pool-api';
import { ProposalCard } from './proposal-card';
import { ProposalFeedback } from './proposal-feedback';
import { ProposalReflections } from './proposal-reflections';
import { useReflections } from './reflection-api';

const SHORTCUTS = [{ keys: ['Esc'], action: 'back to the pool' }];
const PROPOSAL_ITEMS_PAGE_SIZE = 25;

function ProposalItems({ proposalId }: { proposalId: number }) {
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const items = useItems({ proposal_id: proposalId, page, page_size: PROPOSAL_ITEMS_PAGE_SIZE });
  if (items.isPending) return <p className="muted">Loading items…</p>;
  if (items.isError) return <LoadError what="the items" error={items.error} />;
  if (items.data.total === 0) return <p className="empty">No items were written from this proposal yet.</p>;
  return (
    <>
      <ItemListTable key={page} items={items.data.items} onOpen={(item) => void navigate(`/items/${item.id}`)} />
      <Pager page={page} pageSize={PROPOSAL_ITEMS_PAGE_SIZE} total={items.data.total} onPage={setPage} />
    </>
  );
}

/** The feedback the proposal's items gathered, and the reflections that answered it. */
function FeedbackLoop({ proposal, canReflect }: { proposal: Proposal; canReflect: boolean }) {
  const reflections = useReflections(proposal.id);
  if (reflections.isPending) return <p className="muted">Loading feedback and reflections…</p>;
  if (reflections.isError) return <LoadError what="the feedback" error={reflections.error} />;
  return (
    <>
      <section aria-labelledby="proposal-reflections-heading">
        <h2 id="proposal-reflections-heading">Reflections</h2>
        <ProposalReflections proposal={proposal} reflections={reflections.data.reflections} canReflect={canReflect} />
      </section>
      <section aria-labelledby="proposal-feedback-heading">
        <h2 id="proposal-feedback-heading">Reviewer feedback</h2>
        <ProposalFeedback feedback={reflections.data.feedback} />
      </section>
    </>
  );
}

/**
 * One proposal at /pool/:id: its card, its lineage with pass rates, the feedback its items
 * gathered and the reflections on it (curators reflect on demand), and the items written from it.
 */
export function ProposalPage() {
  const id = parseId(useParams().id);
  const user = useCurrentUser();
  const navigate = useNavigate();
  const proposal = useProposal(id);
  const canEdit = roleAtLeast(user.role, 'curator');
  useHotkeys({ Escape: () => void navigate('/pool') });

  const back = <BackLink to="/pool">Pool</BackLink>;
  if (id === null || isNotFound(proposal.error)) return <RecordNotFound noun="proposal" back={back} />;
  return (
    <section className="page">
      <title>{`Proposal #${id} · Chart-HQA`}</title>
      <header className="page-header">
        <div>
          {back}
          <h1>Proposal #{id}</h1>
        </div>
        <ShortcutHint shortcuts={SHORTCUTS} />
      </header>
      {proposal.isPending && <p className="muted">Loading proposal…</p>}
      {proposal.isError && <LoadError what="the proposal" error={proposal.error} />}
      {proposal.data && (
        <>
          <ProposalCard proposal={proposal.data.proposal} canEdit={canEdit} />
          <p className="muted small">
            Created <time dateTime={proposal.data.proposal.created_at}>{formatTime(proposal.data.proposal.created_at)}</time>
            {proposal.data.proposal.updated_at !== proposal.data.proposal.created_at && (
              <>
                {' '}
                · updated <time dateTime={proposal.data.proposal.updated_at}>{formatTime(proposal.data.proposal.updated_at)}</time>
              </>
            )}
          </p>
          <section aria-labelledby="proposal-lineage-heading">
            <h2 id="proposal-lineage-heading">Lineage</h2>
            <LineageTree proposalId={id} />
          </section>
          <FeedbackLoop key={id} proposal={proposal.data.proposal} canReflect={canEdit} />
          <section aria-labelledby="proposal-items-heading">
            <h2 id="proposal-items-heading">Items from this proposal</h2>
            <ProposalItems proposalId={id} />
          </section>
        </>
      )}
    </section>
  );
}
