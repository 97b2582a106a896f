import { useQuery } from '@tanstack/react-query';
import { overviewApi } from '@shared/api/overview';
import { call } from '../../api/http';
import { queryKeys } from '../../api/query-keys';

/** The project's figures; kept live by the review and run pushes (api/socket.ts invalidates them). */
export function useOverview() {
  return useQuery({ queryKey: queryKeys.overview(), queryFn: () => call(overviewApi.get) });
}
