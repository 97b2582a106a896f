import type { ItemStatus } from '@shared/domain/generation';
import { errorMessage } from '../../api/http';
import { useGoldState, useSetGold } from '../../api/gold-api';

/**
 * A curator's gold mark on an accepted item: a share of every reviewer's queue is gold items,
 * their reviews compared with the gold decision (what the accepted review said per criterion).
 */
export function GoldToggle({ itemId, status }: { itemId: number; status: ItemStatus }) {
  const state = useGoldState(itemId);
  const setGold = useSetGold(itemId);
  const gold = state.data?.gold ?? false;
  if (!gold && status !== 'accepted') return null;
  return (
    <p className="gold-toggle" data-testid="gold-toggle">
      <button type="button" disabled={state.isPending || setGold.isPending} aria-pressed={gold} onClick={() => setGold.mutate(!gold)}>
        {gold ? 'Unmark gold' : 'Mark as gold'}
      </button>{' '}
      {gold && state.data && <span className="muted">Gold item · {state.data.reviews} calibration reviews</span>}
      {setGold.isError && <span role="alert">{errorMessage(setGold.error)}</span>}
    </p>
  );
}
