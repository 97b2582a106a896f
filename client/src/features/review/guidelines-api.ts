import { useQuery } from '@tanstack/react-query';
import { settingsApi } from '@shared/api/settings';
import { call } from '../../api/http';
import { queryKeys } from '../../api/query-keys';

/** The three criteria's guidelines (Markdown), as admins last saved them. */
export function useReviewGuidelines(enabled = true) {
  return useQuery({
    queryKey: queryKeys.reviewGuidelines(),
    queryFn: () => call(settingsApi.guidelines),
    enabled,
    // Changed rarely (by an admin); fetched again when the reviewer comes back to the tab.
    staleTime: 60_000,
  });
}
