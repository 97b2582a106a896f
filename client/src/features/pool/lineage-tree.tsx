import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { LineageNode, LineageResponse } from '@shared/api/analytics';
import { errorMessage } from '../../api/http';
import { formatPassRate } from '../../ui/format';
import { useLineage } from './analytics-api';

/** "raise bar": the verb–object pair read from a proposal's text, or a note that none was. */
export function OperationTag({ operation }: { operation: LineageNode['operation'] }) {
  if (!operation) return <span className="op-tag op-none">no operation read</span>;
  return (
    <span className="op-tag" title="operation (verb–object)" data-testid="operation">
      <strong>{operation.verb}</strong> {operation.noun}
    </span>
  );
}

function NodeSummary({ node }: { node: LineageNode }) {
  const self = node.relation === 'self';
  return (
    <div className={`lineage-node relation-${node.relation}`}>
      <div className="lineage-node-head">
        {self ? (
          <strong aria-current="page">#{node.id} (this proposal)</strong>
        ) : (
          <Link to={`/pool/${node.id}`} className="proposal-id">
            #{node.id}
          </Link>
        )}
        <span className={`source-tag origin-${node.origin}`}>{node.origin}</span>
        <span className={`status-tag proposal-status-${node.status}`}>{node.status}</span>
        <span className="muted small">round {node.round}</span>
        <OperationTag operation={node.operation} />
        <span className="small lineage-pass-rate" data-testid="lineage-pass-rate">
          {node.pass_rate === null ? 'no item decided yet' : `pass rate ${formatPassRate(node)}`}
        </span>
      </div>
      <p className="lineage-text">{node.text}</p>
    </div>
  );
}

/**
 * The lineage drawn from its roots down. A node with two parents in the lineage is drawn under
 * the first and referred to under the others; a cycle (which the server should never send)
 * cannot loop.
 */
function renderTree(lineage: LineageResponse): ReactNode {
  const byId = new Map(lineage.nodes.map((node) => [node.id, node]));
  const childrenOf = new Map<number, LineageNode[]>();
  for (const node of lineage.nodes) {
    for (const parent of node.parent_ids) childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), node]);
  }
  const drawn = new Set<number>();
  const branch = (node: LineageNode): ReactNode => {
    if (drawn.has(node.id)) {
      return (
        <li key={node.id} className="muted small">
          <Link to={`/pool/${node.id}`}>#{node.id}</Link> (shown above)
        </li>
      );
    }
    drawn.add(node.id);
    const children = childrenOf.get(node.id) ?? [];
    return (
      <li key={node.id} data-testid="lineage-node" data-proposal-id={node.id} data-relation={node.relation}>
        <NodeSummary node={node} />
        {children.length > 0 && <ul>{children.map(branch)}</ul>}
      </li>
    );
  };
  const roots = lineage.root_ids.flatMap((id) => byId.get(id) ?? []);
  return <ul className="lineage-tree">{roots.map(branch)}</ul>;
}

/** Where a proposal came from and what reflection made of it: ancestors → this proposal → descendants. */
export function LineageTree({ proposalId }: { proposalId: number }) {
  const lineage = useLineage(proposalId);
  if (lineage.isPending) return <p className="muted">Loading the lineage…</p>;
  if (lineage.isError) {
    return (
      <p className="error" role="alert">
        Could not load the lineage: {errorMessage(lineage.error)}
      </p>
    );
  }
  const alone = lineage.data.nodes.length <= 1;
  return (
    <div data-testid="lineage-tree">
      {alone && <p className="muted small">No parents or revisions yet: the proposal stands alone.</p>}
      {renderTree(lineage.data)}
    </div>
  );
}
