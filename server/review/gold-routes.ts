import { goldApi } from '../../shared/api/gold';
import type { Db } from '../../db/database';
import { handle, type ApiRouter } from '../http/handle';
import { calibration, goldState, markGold, unmarkGold } from './gold-service';

/** Curators mark and unmark gold items and read reviewers' calibration; reviewers never learn what is gold. */
export function mountGoldRoutes(api: ApiRouter, db: Db): void {
  handle(api, goldApi.get, 'curator', ({ params: { id } }) => goldState(db, id));
  handle(api, goldApi.mark, 'curator', ({ params: { id }, user }) => markGold(db, id, user.id));
  handle(api, goldApi.unmark, 'curator', ({ params: { id } }) => unmarkGold(db, id));
  handle(api, goldApi.calibration, 'curator', () => calibration(db));
}
