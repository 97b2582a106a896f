import { keepPreviousData, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  poolApi,
  type CreateProposalRequest,
  type Proposal,
  type ProposalListQuery,
  type ProposalListResponse,
  type UpdateProposalRequest,
} from '@shared/api/pool';
import { call } from './http';
import { queryKeys } from './query-keys';

export function useProposals(query: ProposalListQuery) {
  return useQuery({
    queryKey: queryKeys.pool.list(query),
    queryFn: () => call(poolApi.list, { query }),
    placeholderData: keepPreviousData,
  });
}

/** One proposal; `null` (an id that cannot exist) fetches nothing. */
export function useProposal(id: number | null) {
  return useQuery({
    queryKey: queryKeys.pool.detail(id ?? 0),
    queryFn: id === null ? skipToken : () => call(poolApi.get, { params: { id } }),
  });
}

function useRememberProposal() {
  const queryClient = useQueryClient();
  return (proposal: Proposal) => {
    queryClient.setQueryData(queryKeys.pool.detail(proposal.id), { proposal });
    queryClient.setQueriesData<ProposalListResponse>({ queryKey: queryKeys.pool.lists() }, (old) =>
      old ? { ...old, proposals: old.proposals.map((p) => (p.id === proposal.id ? proposal : p)) } : old,
    );
    void queryClient.invalidateQueries({ queryKey: queryKeys.pool.lists() });
  };
}

/** A curator's hand-written seed; the server keeps a near-copy as `duplicate` or refuses it (409 on `text`). */
export function useAddSeed() {
  const remember = useRememberProposal();
  return useMutation({
    mutationFn: (body: CreateProposalRequest) => call(poolApi.create, { body }),
    onSuccess: ({ proposal }) => remember(proposal),
  });
}

export function useUpdateProposal(id: number) {
  const remember = useRememberProposal();
  return useMutation({
    mutationFn: (body: UpdateProposalRequest) => call(poolApi.update, { params: { id }, body }),
    onSuccess: ({ proposal }) => remember(proposal),
  });
}
