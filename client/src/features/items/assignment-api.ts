import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { assignmentApi, type Assignee, type BulkTarget } from '@shared/api/assignment';
import { call } from '../../api/http';
import { queryKeys } from '../../api/query-keys';

/** Named queues with their members, and the reviewers a curator may assign to. */
export function useQueues(enabled = true) {
  return useQuery({ queryKey: queryKeys.queues(), queryFn: () => call(assignmentApi.queues), enabled });
}

/** After a bulk change: the list's tags and statuses, the queues' counts, the queue bar. */
function useRefresh() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.items.all() });
    void queryClient.invalidateQueries({ queryKey: queryKeys.review.all() });
    void queryClient.invalidateQueries({ queryKey: queryKeys.queues() });
  };
}

export function useCreateQueue() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (name: string) => call(assignmentApi.createQueue, { body: { name } }), onSuccess: refresh });
}

export function useRenameQueue() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ queueId, name }: { queueId: number; name: string }) => call(assignmentApi.renameQueue, { params: { id: queueId }, body: { name } }),
    onSuccess: refresh,
  });
}

/** Deletes a queue; answers how many items lost their assignment. */
export function useDeleteQueue() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: (queueId: number) => call(assignmentApi.deleteQueue, { params: { id: queueId } }), onSuccess: refresh });
}

/** One item's assignment (to whom, by whom, when): curators only, so a reviewer's page never asks. */
export function useItemAssignment(itemId: number, enabled: boolean) {
  return useQuery({ queryKey: queryKeys.itemAssignment(itemId), queryFn: () => call(assignmentApi.itemAssignment, { params: { id: itemId } }), enabled });
}

export function useQueueMember() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ queueId, userId, add }: { queueId: number; userId: number; add: boolean }) =>
      add
        ? call(assignmentApi.addMember, { params: { id: queueId }, body: { user_id: userId } })
        : call(assignmentApi.removeMember, { params: { id: queueId, user_id: userId } }),
    onSuccess: refresh,
  });
}

/** One bulk action on checked ids or the whole filter; answers how many items it changed. */
export type BulkAction = { kind: 'assign'; to: Assignee } | { kind: 'unassign' } | { kind: 'gold' } | { kind: 'retire' } | { kind: 'unretire' };

async function runBulk(target: BulkTarget, action: BulkAction): Promise<string> {
  const n = (count: number) => `${count.toLocaleString('en-US')} ${count === 1 ? 'item' : 'items'}`;
  switch (action.kind) {
    case 'assign':
      return `${n((await call(assignmentApi.assign, { body: { target, to: action.to } })).assigned)} assigned.`;
    case 'unassign':
      return `${n((await call(assignmentApi.unassign, { body: { target } })).unassigned)} unassigned.`;
    case 'gold': {
      const { marked, skipped } = await call(assignmentApi.gold, { body: { target } });
      return `${n(marked)} marked gold${skipped > 0 ? `; ${n(skipped)} skipped (not accepted, or gold already)` : ''}.`;
    }
    case 'retire':
      return `${n((await call(assignmentApi.retire, { body: { target } })).retired)} retired.`;
    case 'unretire':
      return `${n((await call(assignmentApi.unretire, { body: { target } })).restored)} restored to review.`;
  }
}

export function useBulkAction() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: ({ target, action }: { target: BulkTarget; action: BulkAction }) => runBulk(target, action), onSuccess: refresh });
}
