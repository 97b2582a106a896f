import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { goldApi } from '@shared/api/gold';
import { call } from './http';

/** Gold keys live here, not in query-keys.ts: only the Item page's toggle and the Stats section read them. */
const goldKeys = {
  item: (id: number) => ['gold', 'item', id] as const,
  calibration: () => ['gold', 'calibration'] as const,
};

/** Whether the item is gold (curators only). */
export function useGoldState(itemId: number) {
  return useQuery({ queryKey: goldKeys.item(itemId), queryFn: () => call(goldApi.get, { params: { id: itemId } }) });
}

/** Marks (`true`) or unmarks (`false`) the item as gold. */
export function useSetGold(itemId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (gold: boolean) => call(gold ? goldApi.mark : goldApi.unmark, { params: { id: itemId } }),
    onSuccess: (state) => {
      queryClient.setQueryData(goldKeys.item(itemId), state);
      void queryClient.invalidateQueries({ queryKey: goldKeys.calibration() });
    },
  });
}

/** Each reviewer's agreement with gold per criterion per week, and who is under the threshold (curators only). */
export function useCalibration() {
  return useQuery({ queryKey: goldKeys.calibration(), queryFn: () => call(goldApi.calibration) });
}
